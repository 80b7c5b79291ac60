//! Indented output at every width (1 to 16 spaces or tabs) and at depths
//! on both sides of the writer's one-move indentation (`INDENT_WINDOW`, 64
//! bytes of indentation): the same bytes as serde_json's pretty printer
//! with that indent, for `Value`s (names of every kind: clean, escaped,
//! empty, non-ASCII) and for serde structs (static field names).

use jetjson::WriteOptions;
use serde::Serialize;

/// Objects and arrays nested `depth` deep, each level with names that take
/// every path of the writer's name code.
fn nested(depth: usize) -> serde_json::Value {
    let mut v = serde_json::json!({"leaf": [1, "two", null, {}, []]});
    for d in 0..depth {
        v = if d % 2 == 0 {
            serde_json::json!({"k": d, "": true, "q\"uote": [d], "é": "x", "long name of forty bytes, more or less!": v})
        } else {
            serde_json::json!([d, v, "s"])
        };
    }
    v
}

fn pretty(v: &impl Serialize, indent: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, serde_json::ser::PrettyFormatter::with_indent(indent));
    v.serialize(&mut ser).unwrap();
    out
}

#[test]
fn values_indented_at_every_width_and_depth_are_serde_jsons_pretty_bytes() {
    for depth in [0, 1, 3, 4, 5, 8, 9, 12, 17, 33, 65] {
        let sv = nested(depth);
        let v: jetjson::Value = jetjson::from_slice(&serde_json::to_vec(&sv).unwrap()).unwrap();
        for n in 1..=16u16 {
            let spaces = pretty(&sv, &vec![b' '; n as usize]);
            let tabs = pretty(&sv, &vec![b'\t'; n as usize]);
            assert_eq!(v.to_vec_with(&WriteOptions::compact().indent(n)).unwrap(), spaces, "depth {depth}, indent {n}");
            assert_eq!(v.to_vec_with(&WriteOptions::compact().indent_tabs(n)).unwrap(), tabs, "depth {depth}, tabs {n}");
            // The serde path over serde_json's own value (map keys).
            assert_eq!(jetjson::to_vec_with(&sv, &WriteOptions::compact().indent(n)).unwrap(), spaces, "serde, depth {depth}, indent {n}");
        }
    }
}

#[derive(Serialize)]
struct Level {
    id: u32,
    #[serde(rename = "a\"b")]
    escaped: bool,
    name: &'static str,
    child: Option<Box<Level>>,
    items: Vec<u8>,
}

#[test]
fn structs_indented_at_every_width_and_depth_are_serde_jsons_pretty_bytes() {
    for depth in [0, 1, 4, 5, 9, 17, 40] {
        let mut level = Level { id: 0, escaped: true, name: "<x>", child: None, items: vec![] };
        for d in 1..=depth {
            level = Level { id: d, escaped: d % 2 == 0, name: "n", child: Some(Box::new(level)), items: vec![1, 2] };
        }
        for n in 1..=16u16 {
            let want = pretty(&level, &vec![b' '; n as usize]);
            assert_eq!(jetjson::to_vec_with(&level, &WriteOptions::compact().indent(n)).unwrap(), want, "depth {depth}, indent {n}");
            let want = pretty(&level, &vec![b'\t'; n as usize]);
            assert_eq!(jetjson::to_vec_with(&level, &WriteOptions::compact().indent_tabs(n)).unwrap(), want, "depth {depth}, tabs {n}");
        }
    }
}
