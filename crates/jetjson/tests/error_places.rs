//! Where errors point: an enum that matched no variant, inside an array or
//! at the top level, at the element's start (not the array's `[`, not
//! nowhere); a size limit hit by `from_reader_with` where
//! `from_slice_with` puts it; an I/O error of `to_writer` with no value
//! path (the sink failed, not the value).

use jetjson::{Category, ReadOptions};
use serde::Deserialize;

#[derive(Deserialize, Debug)]
#[serde(untagged)]
#[allow(dead_code)]
enum Untagged {
    A { x: i64 },
    B(String),
}

#[derive(Deserialize, Debug)]
#[serde(tag = "t")]
#[allow(dead_code)]
enum Tagged {
    P { n: u8 },
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Holder {
    a: Vec<Tagged>,
}

fn offset(e: &jetjson::Error) -> Option<usize> {
    e.position().map(|p| p.offset)
}

#[test]
fn enum_errors_point_at_the_element() {
    let doc = "[\n{\"x\":1},\n\"s\",\n{\"x\":\"three\"}\n]";
    let e = jetjson::from_str::<Vec<Untagged>>(doc).unwrap_err();
    assert_eq!(offset(&e), doc.find("{\"x\":\"three"), "{e}");
    assert_eq!(e.position().unwrap().line, 4);
    let doc = r#"{"a":[{"t":"P","n":1}, {"t":"P","n":300}]}"#;
    let e = jetjson::from_str::<Holder>(doc).unwrap_err();
    assert_eq!(offset(&e), doc.find(r#"{"t":"P","n":300"#), "{e}");
    // At the top level: where the value starts.
    let doc = "  {\"x\":\"three\"}";
    let e = jetjson::from_str::<Untagged>(doc).unwrap_err();
    assert_eq!(offset(&e), Some(2), "{e}");
    let mut it = jetjson::Deserializer::from_slice(b"\"ok\" {\"x\":[]}").into_iter::<Untagged>();
    assert!(it.next().unwrap().is_ok());
    assert_eq!(offset(&it.next().unwrap().unwrap_err()), Some(5));
}

#[test]
fn reader_size_limit_has_the_slice_position() {
    let doc = b"[1,\n 2, 3]";
    let options = ReadOptions::new().max_size(6);
    let from_slice = jetjson::from_slice_with::<Vec<u8>>(doc, &options).unwrap_err();
    let from_reader = jetjson::from_reader_with::<_, Vec<u8>>(&doc[..], &options).unwrap_err();
    assert!(from_slice.position().is_some());
    assert_eq!(from_reader.position(), from_slice.position());
    assert_eq!(from_reader.to_string(), from_slice.to_string());
}

struct Full;
impl std::io::Write for Full {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("disk full"))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn io_errors_have_no_value_path() {
    let big = "x".repeat(1 << 20);
    let v = jetjson::json!({"a": [big]});
    let e = jetjson::to_writer(Full, &v).unwrap_err();
    assert_eq!(e.classify(), Category::Io);
    assert_eq!(e.path().count(), 0);
    assert_eq!(e.to_string(), "I/O error: disk full");
}

/// A `}` after a member's `,` is said alike by every reader: the serde
/// path (any target), `Value`, the validator.
#[test]
fn a_trailing_comma_in_an_object_is_said_alike_by_every_reader() {
    #[derive(serde::Deserialize, Debug)]
    struct A {
        #[allow(dead_code)]
        a: u8,
    }
    for text in [&b"{\"a\":0,}"[..], b"{\"a\":0 , }", b"[{\"a\":1},{\"a\":0,\n}]"] {
        let want = jetjson::Value::from_slice(text).unwrap_err();
        let validated = jetjson::parse::validate(text, &jetjson::ReadOptions::new()).unwrap_err();
        let ignored = jetjson::from_slice::<serde::de::IgnoredAny>(text).unwrap_err();
        let typed =
            if text[0] == b'{' { jetjson::from_slice::<A>(text).unwrap_err() } else { jetjson::from_slice::<Vec<A>>(text).unwrap_err() };
        for e in [validated, ignored, typed] {
            assert_eq!((e.message(), e.position()), (want.message(), want.position()), "{}", String::from_utf8_lossy(text));
        }
    }
}
