//! The OCI documents of `../shared/corpus/oci`: image manifests (OCI and
//! Docker v2 schema 2), image indexes (and Docker manifest lists, and OCI
//! layout `index.json`), image configs, and one Docker schema 1 signed
//! manifest, as the structs of opencontainers/image-spec and
//! distribution/distribution. Optional members are `Option`s skipped when
//! absent, so each model's serde_json round trip equals its document's
//! members (checked at benchmark start-up).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub type Annotations = BTreeMap<String, String>;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
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

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Descriptor {
    pub media_type: String,
    pub digest: String,
    pub size: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub urls: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<Platform>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact_type: Option<String>,
}

/// image-spec `Manifest` (and Docker's schema 2 manifest, the same shape).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub schema_version: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact_type: Option<String>,
    pub config: Descriptor,
    pub layers: Vec<Descriptor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<Descriptor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
}

/// image-spec `Index` (Docker's manifest list, an OCI layout's `index.json`).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Index {
    pub schema_version: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact_type: Option<String>,
    pub manifests: Vec<Descriptor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<Descriptor>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
}

/// image-spec `ImageConfig` (the `config` member); Docker's extra members
/// (`Hostname`, `Attach*`, ...) are kept too, as Docker's own struct has them.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct RunConfig {
    #[serde(rename = "Hostname", default, skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    #[serde(rename = "Domainname", default, skip_serializing_if = "Option::is_none")]
    pub domainname: Option<String>,
    #[serde(rename = "User", default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    #[serde(rename = "AttachStdin", default, skip_serializing_if = "Option::is_none")]
    pub attach_stdin: Option<bool>,
    #[serde(rename = "AttachStdout", default, skip_serializing_if = "Option::is_none")]
    pub attach_stdout: Option<bool>,
    #[serde(rename = "AttachStderr", default, skip_serializing_if = "Option::is_none")]
    pub attach_stderr: Option<bool>,
    #[serde(rename = "ExposedPorts", default, skip_serializing_if = "Option::is_none")]
    pub exposed_ports: Option<BTreeMap<String, BTreeMap<String, String>>>,
    #[serde(rename = "Tty", default, skip_serializing_if = "Option::is_none")]
    pub tty: Option<bool>,
    #[serde(rename = "OpenStdin", default, skip_serializing_if = "Option::is_none")]
    pub open_stdin: Option<bool>,
    #[serde(rename = "StdinOnce", default, skip_serializing_if = "Option::is_none")]
    pub stdin_once: Option<bool>,
    #[serde(rename = "Env", default, skip_serializing_if = "Option::is_none")]
    pub env: Option<Vec<String>>,
    #[serde(rename = "Entrypoint", default, skip_serializing_if = "Option::is_none")]
    pub entrypoint: Option<Vec<String>>,
    #[serde(rename = "Cmd", default, skip_serializing_if = "Option::is_none")]
    pub cmd: Option<Vec<String>>,
    #[serde(rename = "Image", default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(rename = "Volumes", default, skip_serializing_if = "Option::is_none")]
    pub volumes: Option<BTreeMap<String, BTreeMap<String, String>>>,
    #[serde(rename = "WorkingDir", default, skip_serializing_if = "Option::is_none")]
    pub working_dir: Option<String>,
    #[serde(rename = "OnBuild", default, skip_serializing_if = "Option::is_none")]
    pub on_build: Option<Vec<String>>,
    #[serde(rename = "Labels", default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, String>>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct RootFs {
    #[serde(rename = "type")]
    pub kind: String,
    pub diff_ids: Vec<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct History {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_layer: Option<bool>,
}

/// image-spec `Image` (the image config blob).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ImageConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    pub architecture: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    pub os: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<RunConfig>,
    pub rootfs: RootFs,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<Vec<History>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_config: Option<RunConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub docker_version: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FsLayer {
    pub blob_sum: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct V1History {
    pub v1_compatibility: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Jwk {
    pub crv: String,
    pub kid: String,
    pub kty: String,
    pub x: String,
    pub y: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct JwsHeader {
    pub jwk: Jwk,
    pub alg: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Signature {
    pub header: JwsHeader,
    pub signature: String,
    pub protected: String,
}

/// Docker image manifest schema 1, signed.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SignedManifestV1 {
    pub schema_version: i32,
    pub name: String,
    pub tag: String,
    pub architecture: String,
    pub fs_layers: Vec<FsLayer>,
    pub history: Vec<V1History>,
    pub signatures: Vec<Signature>,
}

/// What a document of `corpus/oci` is, by its members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Manifest,
    Index,
    Config,
    SignedV1,
}

/// Every document of `../shared/corpus/oci` (files named `*.json` and
/// content-addressed blobs), sorted by path, with its kind.
pub fn documents() -> Vec<(String, Kind, Vec<u8>)> {
    let root = format!("{}/../../../shared/corpus/oci", env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(&root)];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.expect("directory entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "json") || p.components().any(|c| c.as_os_str() == "blobs") {
                paths.push(p);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("readable");
            let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let kind = if v.get("manifests").is_some() {
                Kind::Index
            } else if v.get("layers").is_some() {
                Kind::Manifest
            } else if v.get("fsLayers").is_some() {
                Kind::SignedV1
            } else {
                Kind::Config
            };
            let name = p.strip_prefix(&root).expect("under root").display().to_string();
            (name, kind, bytes)
        })
        .collect()
}
