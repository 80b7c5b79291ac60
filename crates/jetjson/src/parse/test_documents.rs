//! Random documents for the parser's differential tests (the fast driver
//! and the validator against the reference): containers of members or
//! items built from `pieces`, or pieces run together, then sometimes one
//! byte replaced or the text cut, to reach errors as well.

use super::drive::Level;
use super::visitor::{NumberToken, Visitor};
use crate::error::Result;
use crate::{DuplicateKeys, ReadOptions};

/// The driver builds this CPU can run: the baseline, and AVX2 and AVX-512
/// when present (whatever `JETJSON_LEVEL` says).
pub(super) fn levels() -> Vec<Level> {
    let mut l = vec![Level::Baseline];
    #[cfg(target_arch = "x86_64")]
    {
        let cpu = super::drive::cpu_level();
        l.extend([Level::Avx2, Level::Avx512].into_iter().filter(|&k| k <= cpu));
    }
    l
}

/// Option sets that change what a parse accepts or how it ends.
pub(super) fn options() -> Vec<ReadOptions> {
    vec![
        ReadOptions::default(),
        ReadOptions::default().duplicate_keys(DuplicateKeys::Last),
        ReadOptions::lossless(),
        ReadOptions::default().max_depth(3),
        ReadOptions::default().allow_bom(true).max_size(300),
    ]
}

/// Calls `check` with `rounds` documents made of `pieces`, each twice:
/// as made, and after `round % 64` spaces (which move its tokens across
/// the 64-byte block ends). Member names are `"k0"` to `"k{names - 1}"`
/// followed by `colon`. The same seed every time: a failure repeats.
pub(super) fn random_documents(pieces: &[&[u8]], rounds: usize, names: usize, colon: &str, mut check: impl FnMut(&[u8])) {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as usize % n
    };
    for round in 0..rounds {
        let mut doc = Vec::new();
        if round % 2 == 0 {
            // Mostly well formed: a container of members or items.
            let object = next(2) == 0;
            doc.push(if object { b'{' } else { b'[' });
            for k in 0..next(12) {
                if k > 0 {
                    doc.extend_from_slice(if next(3) == 0 { b",\n    " } else { b"," });
                }
                if object {
                    doc.extend_from_slice(format!("\"k{}\"{colon}", next(names)).as_bytes());
                }
                doc.extend_from_slice(pieces[next(pieces.len())]);
            }
            doc.push(if object { b'}' } else { b']' });
        } else {
            for _ in 0..next(16) {
                doc.extend_from_slice(pieces[next(pieces.len())]);
            }
        }
        match next(4) {
            0 if !doc.is_empty() => {
                let at = next(doc.len());
                doc[at] = pieces[next(pieces.len())].first().copied().unwrap_or(b'x');
            }
            1 if !doc.is_empty() => doc.truncate(next(doc.len())),
            _ => {}
        }
        let mut placed = vec![b' '; round % 64];
        placed.extend_from_slice(&doc);
        check(&placed);
        check(&doc);
    }
}

/// Every call of a parser to its visitor, written down (the driver's and
/// the flat walk's differential tests).
#[derive(Default)]
pub(super) struct Record(pub(super) Vec<String>);

impl Visitor for Record {
    fn null(&mut self) -> Result<()> {
        self.0.push("null".into());
        Ok(())
    }
    fn bool(&mut self, v: bool) -> Result<()> {
        self.0.push(format!("{v}"));
        Ok(())
    }
    fn number(&mut self, n: NumberToken<'_>) -> Result<()> {
        self.0.push(format!("num {} {} {:?}", n.text, n.is_integer, n.value));
        Ok(())
    }
    fn string(&mut self, s: &str, raw: &str) -> Result<()> {
        self.0.push(format!("str {s:?} {raw:?}"));
        Ok(())
    }
    fn ascii_string(&mut self, s: &str) -> Result<()> {
        assert!(s.is_ascii());
        self.0.push(format!("str {s:?} {s:?}"));
        Ok(())
    }
    fn begin_array(&mut self) -> Result<()> {
        self.0.push("[".into());
        Ok(())
    }
    fn end_array(&mut self) -> Result<()> {
        self.0.push("]".into());
        Ok(())
    }
    fn begin_object(&mut self) -> Result<()> {
        self.0.push("{".into());
        Ok(())
    }
    fn key(&mut self, k: &str, raw: &str) -> Result<()> {
        self.0.push(format!("key {k:?} {raw:?}"));
        Ok(())
    }
    fn ascii_key(&mut self, k: &str) -> Result<()> {
        assert!(k.is_ascii());
        self.0.push(format!("key {k:?} {k:?}"));
        Ok(())
    }
    fn end_object(&mut self) -> Result<()> {
        self.0.push("}".into());
        Ok(())
    }
}

/// The reference driver's calls and outcome for `input`.
pub(super) fn reference(input: &[u8], options: &ReadOptions) -> (Vec<String>, Result<()>) {
    let mut r = Record::default();
    let outcome = super::parser::Parser::new(input, options).and_then(|mut p| {
        p.drive(&mut r)?;
        p.finish()
    });
    (r.0, outcome)
}
