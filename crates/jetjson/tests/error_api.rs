//! `Error::line`, `Error::column` and `Error::classify`: where an error is
//! and what kind of trouble it is, as serde_json users ask for it.

mod common;

use std::io::{self, Read};

use jetjson::{Category, Error, ReadOptions, Value, WriteOptions};

/// The three read paths: the `Value` builder, serde into `Value`, serde
/// into a type that keeps nothing.
fn read_all(input: &[u8]) -> [Result<(), Error>; 3] {
    [
        Value::from_slice(input).map(drop),
        jetjson::from_slice::<Value>(input).map(drop),
        jetjson::from_slice::<serde::de::IgnoredAny>(input).map(drop),
    ]
}

/// Valid documents: the JSONTestSuite's y_ files jetjson accepts, and
/// generated documents in several layouts.
fn valid_documents() -> Vec<Vec<u8>> {
    let mut docs = Vec::new();
    let dir = common::corpus("jsontestsuite/test_parsing");
    let mut names: Vec<_> = std::fs::read_dir(&dir).expect("../shared/corpus/jsontestsuite").map(|e| e.unwrap().path()).collect();
    names.sort();
    for path in names {
        if path.file_name().unwrap().to_string_lossy().starts_with("y_") {
            let bytes = std::fs::read(&path).unwrap();
            if Value::from_slice(&bytes).is_ok() {
                docs.push(bytes);
            }
        }
    }
    assert!(docs.len() > 90, "only {} y_ files", docs.len());
    let mut rng = common::Rng::new(22);
    for i in 0..150 {
        let doc = common::document(&mut rng, 3);
        let options = match i % 3 {
            0 => WriteOptions::compact(),
            1 => WriteOptions::compact().indent(2),
            _ => WriteOptions::compact().ascii_only(true),
        };
        if let Ok(bytes) = doc.to_vec_with(&options) {
            docs.push(bytes);
        }
    }
    docs
}

#[test]
fn every_truncation_of_a_valid_document_is_an_eof_error() {
    let mut checked = 0;
    for doc in valid_documents() {
        for cut in 0..doc.len() {
            let prefix = &doc[..cut];
            for (path, result) in read_all(prefix).into_iter().enumerate() {
                // A prefix may be a document of its own ("12" of "123").
                if let Err(e) = result {
                    assert_eq!(e.classify(), Category::Eof, "path {path}, {:?}: {e}", String::from_utf8_lossy(prefix));
                    assert!(e.is_eof());
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 20_000, "{checked}");
}

#[test]
fn errors_at_a_bad_byte_are_syntax_not_eof() {
    let cases: &[&[u8]] = &[
        b"[1,]",
        b"[1 2]",
        b"tru e",
        b"\"\\x\"",
        b"\"\\ud83dx\"",
        b"\"\\ud83d\\u0041\"",
        b"\"\\ud83d",
        b"[\"\xff\"]",
        b"01",
        b"-x",
        b"1.e5",
        b"\"\\u12x4\"",
        b"{\"a\" 1}",
        b"[1] 2",
        b"\xEF\xBB\xBF[1]",
        b"\"tab\there\"",
        b"nul",
    ];
    for &input in cases {
        for (path, result) in read_all(input).into_iter().enumerate() {
            let e = result.unwrap_err();
            let want = match input {
                // These stop where the input does.
                b"\"\\ud83d" | b"nul" => Category::Eof,
                _ => Category::Syntax,
            };
            assert_eq!(e.classify(), want, "path {path}, {:?}: {e}", String::from_utf8_lossy(input));
            assert_eq!(e.is_syntax(), want == Category::Syntax);
        }
    }
}

#[test]
fn data_limit_and_io_errors() {
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Item {
        id: u8,
    }
    let class = |r: jetjson::Result<Item>| r.unwrap_err().classify();
    assert_eq!(class(jetjson::from_str("{\"id\": 300}")), Category::Data);
    assert_eq!(class(jetjson::from_str("{\"id\": \"1\"}")), Category::Data);
    assert_eq!(class(jetjson::from_str("{}")), Category::Data);
    assert_eq!(class(jetjson::from_str("{\"id\": 1, \"id\": 2}")), Category::Data);
    assert_eq!(class(jetjson::from_str("{\"id\": 1e400}")), Category::Data);
    assert_eq!(class(jetjson::from_str_with("{\"id\": 1}", &ReadOptions::new().max_size(3))), Category::Limit);
    assert_eq!(class(jetjson::from_str_with("[[{\"id\": 1}]]", &ReadOptions::new().max_depth(1))), Category::Limit);

    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
    let e = jetjson::from_reader::<_, Value>(Failing).unwrap_err();
    assert_eq!(e.classify(), Category::Io);
    assert!(e.is_io() && !e.is_data());
    assert_eq!((e.line(), e.column()), (0, 0));

    // Write errors: data the profile cannot write, and the indent limit.
    let e = jetjson::to_vec(&f64::NAN).unwrap_err();
    assert_eq!(e.classify(), Category::Data);
    assert_eq!((e.line(), e.column()), (0, 0));
    let e = jetjson::to_vec_with(&1, &WriteOptions::compact().indent(17)).unwrap_err();
    assert_eq!(e.classify(), Category::Limit);
    assert!(e.is_limit());
    let mut m = std::collections::HashMap::new();
    m.insert((1, 2), 3);
    assert_eq!(jetjson::to_vec(&m).unwrap_err().classify(), Category::Data);
    struct Broken;
    impl std::io::Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("pipe closed"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    assert_eq!(jetjson::to_writer(Broken, &[1, 2]).unwrap_err().classify(), Category::Io);
}

#[test]
fn line_and_column_count_lines_and_bytes() {
    let input = "{\n  \"a\": [1,\n        2,\n        x]\n}";
    for e in read_all(input.as_bytes()).into_iter().map(Result::unwrap_err) {
        assert_eq!((e.line(), e.column()), (4, 9), "{e}");
        let p = e.position().unwrap();
        assert_eq!(&input[p.offset..p.offset + 1], "x");
        assert!(e.to_string().starts_with("line 4 column 9 (byte 32): "), "{e}");
    }
    // Columns count bytes: the x after "é" (two bytes) is at column 5.
    let e = jetjson::from_str::<Value>("\"é\"x").unwrap_err();
    assert_eq!((e.line(), e.column()), (1, 5));
    // CRLF: the '\r' ends nothing; lines are counted at '\n'.
    let e = jetjson::from_str::<Value>("[1,\r\n x]").unwrap_err();
    assert_eq!((e.line(), e.column()), (2, 2));
}
