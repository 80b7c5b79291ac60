//! Workload 1, a registry client's manifest serializer: OCI image manifests
//! with 5 and 50 annotations and an image index of 10 manifests, with the
//! fields in the order of the Go structs of opencontainers/image-spec (Go
//! writes struct fields in declaration order and sorts map keys; BTreeMap
//! gives every library the sorted annotations). Operations: serialize (jetjson
//! in the `go` profile, as a registry digest needs), parse, and digest.
//!
//! Annotation values hold no `<`, `>` or `&`, so every library's compact
//! output equals Go's bytes and every digest is the right one (checked).
//! Serialization is also timed in jetjson's `compact` profile, the peers'
//! like for like; `go` additionally sorts map keys and checks for HTML
//! characters.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{sha256, simd_typed};
use crate::harness::{Job, Meta, Runner};
use crate::rng::Rng;

pub const MANIFEST: &str = "application/vnd.oci.image.manifest.v1+json";
pub const INDEX: &str = "application/vnd.oci.image.index.v1+json";
const CONFIG: &str = "application/vnd.oci.image.config.v1+json";
const LAYER: &str = "application/vnd.oci.image.layer.v1.tar+gzip";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Platform {
    pub architecture: String,
    pub os: String,
    #[serde(rename = "os.version", default, skip_serializing_if = "Option::is_none")]
    pub os_version: Option<String>,
    #[serde(rename = "os.features", default, skip_serializing_if = "Option::is_none")]
    pub os_features: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
}

/// image-spec `Descriptor`: `mediaType`, `digest`, `size`, then the
/// `omitempty` members `urls`, `annotations`, `data`, `platform`,
/// `artifactType` (`data` and `artifactType` are never set here).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Descriptor {
    pub media_type: String,
    pub digest: String,
    pub size: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub urls: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<Platform>,
}

/// image-spec `Manifest` (`schemaVersion` comes from the embedded `Versioned`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub schema_version: i32,
    pub media_type: String,
    pub config: Descriptor,
    pub layers: Vec<Descriptor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<Descriptor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<BTreeMap<String, String>>,
}

/// image-spec `Index`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Index {
    pub schema_version: i32,
    pub media_type: String,
    pub manifests: Vec<Descriptor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<BTreeMap<String, String>>,
}

fn digest(rng: &mut Rng) -> String {
    format!("sha256:{}", rng.hex(64))
}

/// `n` annotations: the well-known `org.opencontainers.image.*` keys first,
/// then vendor keys.
fn annotations(rng: &mut Rng, n: usize) -> BTreeMap<String, String> {
    let known =
        ["created", "authors", "url", "documentation", "source", "version", "revision", "vendor", "licenses", "title", "description"];
    let mut map = BTreeMap::new();
    for i in 0..n {
        let (key, value) = match known.get(i) {
            Some(&"created") => ("org.opencontainers.image.created".to_string(), "2024-03-05T12:34:56Z".to_string()),
            Some(&"url" | &"documentation" | &"source") => {
                (format!("org.opencontainers.image.{}", known[i]), format!("https://github.com/{}/{}", rng.word(8), rng.word(10)))
            }
            Some(&"revision") => ("org.opencontainers.image.revision".to_string(), rng.hex(40)),
            Some(k) => (format!("org.opencontainers.image.{k}"), rng.sentence_between(8, 40)),
            None => (format!("com.example.{}.{}", rng.word(6), rng.word(8)), rng.sentence_between(4, 60)),
        };
        map.insert(key, value);
    }
    map
}

fn layer(rng: &mut Rng) -> Descriptor {
    Descriptor {
        media_type: LAYER.into(),
        digest: digest(rng),
        size: rng.range(1_000, 200_000_000) as i64,
        urls: None,
        annotations: None,
        platform: None,
    }
}

pub fn manifest(seed: u64, n_annotations: usize) -> Manifest {
    let mut rng = Rng::new(seed);
    let config = Descriptor { media_type: CONFIG.into(), digest: digest(&mut rng), size: rng.range(500, 20_000) as i64, ..layer(&mut rng) };
    let layers = (0..rng.range(3, 8)).map(|_| layer(&mut rng)).collect();
    Manifest {
        schema_version: 2,
        media_type: MANIFEST.into(),
        config,
        layers,
        subject: None,
        annotations: Some(annotations(&mut rng, n_annotations)),
    }
}

pub fn index(seed: u64, n_manifests: usize) -> Index {
    let mut rng = Rng::new(seed);
    let platforms = [
        ("amd64", None),
        ("arm64", Some("v8")),
        ("arm", Some("v7")),
        ("arm", Some("v6")),
        ("ppc64le", None),
        ("s390x", None),
        ("386", None),
        ("riscv64", None),
    ];
    let manifests = (0..n_manifests)
        .map(|i| {
            let (arch, variant) = platforms[i % platforms.len()];
            let windows = i >= platforms.len();
            Descriptor {
                media_type: MANIFEST.into(),
                digest: digest(&mut rng),
                size: rng.range(400, 4_000) as i64,
                urls: None,
                annotations: (i % 3 == 0).then(|| annotations(&mut rng, 2)),
                platform: Some(Platform {
                    architecture: arch.into(),
                    os: if windows { "windows" } else { "linux" }.into(),
                    os_version: windows.then(|| "10.0.17763.5576".into()),
                    os_features: (arch == "amd64").then(|| vec!["sse4".into()]),
                    variant: variant.map(Into::into),
                }),
            }
        })
        .collect();
    Index { schema_version: 2, media_type: INDEX.into(), manifests, annotations: Some(annotations(&mut rng, 3)) }
}

/// The three documents, with their case names.
fn documents() -> (Vec<(&'static str, Manifest)>, (&'static str, Index)) {
    (vec![("manifest-5", manifest(101, 5)), ("manifest-50", manifest(102, 50))], ("index-10", index(103, 10)))
}

pub fn go_inputs() -> Vec<(String, Vec<u8>)> {
    let go = jetjson::WriteOptions::go();
    let (manifests, (name, idx)) = documents();
    let mut files: Vec<(String, Vec<u8>)> =
        manifests.iter().map(|(n, m)| (format!("oci-{n}.json"), jetjson::to_vec_with(m, &go).unwrap())).collect();
    files.push((format!("oci-{name}.json"), jetjson::to_vec_with(&idx, &go).unwrap()));
    files
}

pub fn run(runner: &mut Runner) {
    let (manifests, (name, idx)) = documents();
    for (name, m) in &manifests {
        rows(runner, name, m);
    }
    rows(runner, name, &idx);
}

fn rows<T>(runner: &mut Runner, case: &str, doc: &T)
where
    T: Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let go = jetjson::WriteOptions::go();
    let bytes = jetjson::to_vec_with(doc, &go).unwrap();
    let want_digest = sha256(&bytes);

    // Every library writes Go's bytes for these documents (no HTML
    // characters, no floats), so every digest below is checked against the
    // same one; a library writing other bytes would fail here.
    assert_eq!(serde_json::to_vec(doc).unwrap(), bytes, "{case}: serde_json bytes differ from Go's");
    assert_eq!(sonic_rs::to_vec(doc).unwrap(), bytes, "{case}: sonic-rs bytes differ from Go's");
    // `compact` writes the same bytes here (maps kept in BTreeMap order,
    // which is sorted); next to `go` it shows what Go's rules cost.
    let compact = jetjson::WriteOptions::compact();
    assert_eq!(jetjson::to_vec_with(doc, &compact).unwrap(), bytes, "{case}: jetjson compact bytes differ from Go's");
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::to_vec_with(doc, &compact).unwrap().len())),
        ("jetjson-go", Box::new(|| jetjson::to_vec_with(doc, &go).unwrap().len())),
        ("serde_json", Box::new(|| serde_json::to_vec(doc).unwrap().len())),
        ("sonic-rs", Box::new(|| sonic_rs::to_vec(doc).unwrap().len())),
    ];
    runner.row(
        Meta::new("oci", case, "serialize", bytes.len())
            .note("peers are compared with jetjson compact (same bytes here), Go with jetjson-go"),
        &jobs,
    );

    let b = &bytes;
    assert_eq!(&jetjson::from_slice::<T>(b).unwrap(), doc, "{case}: jetjson parse");
    assert_eq!(&serde_json::from_slice::<T>(b).unwrap(), doc, "{case}: serde_json parse");
    assert_eq!(&sonic_rs::from_slice::<T>(b).unwrap(), doc, "{case}: sonic-rs parse");
    assert_eq!(&simd_typed::<T>(b).unwrap(), doc, "{case}: simd-json parse");
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson", Box::new(|| jetjson::from_slice::<T>(b).is_ok() as usize)),
        ("serde_json", Box::new(|| serde_json::from_slice::<T>(b).is_ok() as usize)),
        ("sonic-rs", Box::new(|| sonic_rs::from_slice::<T>(b).is_ok() as usize)),
        ("simd-json", Box::new(|| simd_typed::<T>(b).is_ok() as usize)),
    ];
    runner.row(Meta::new("oci", case, "parse", bytes.len()).note("simd-json copies its mutable input per call"), &jobs);

    let sha = jetjson::Algorithm::Sha256;
    assert_eq!(jetjson::digest(doc, &go, sha).unwrap(), want_digest, "{case}: jetjson digest");
    let jobs: Vec<Job<'_>> = vec![
        ("jetjson-go", Box::new(|| jetjson::digest(doc, &go, sha).unwrap().len())),
        ("serde_json", Box::new(|| sha256(&serde_json::to_vec(doc).unwrap()).len())),
        ("sonic-rs", Box::new(|| sha256(&sonic_rs::to_vec(doc).unwrap()).len())),
    ];
    runner.row(Meta::new("oci", case, "digest", bytes.len()).note("jetjson hashes while writing; peers serialize, then hash"), &jobs);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_have_the_sizes_asked_for() {
        let (m, (_, idx)) = documents();
        assert_eq!(m[0].1.annotations.as_ref().unwrap().len(), 5);
        assert_eq!(m[1].1.annotations.as_ref().unwrap().len(), 50);
        assert_eq!(idx.manifests.len(), 10);
        // Go's field order: schemaVersion, mediaType, config, layers, annotations.
        let text = String::from_utf8(jetjson::to_vec_with(&m[0].1, &jetjson::WriteOptions::go()).unwrap()).unwrap();
        let at = |k: &str| text.find(k).unwrap();
        assert!(at("\"schemaVersion\"") < at("\"mediaType\"") && at("\"mediaType\"") < at("\"config\""));
        assert!(at("\"config\"") < at("\"layers\"") && at("\"layers\"") < at("\"annotations\""));
    }

    #[test]
    fn every_row_runs_and_checks() {
        run(&mut Runner::smoke());
    }
}
