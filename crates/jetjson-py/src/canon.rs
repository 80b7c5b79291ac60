//! `canonicalize`: JSON text in, a profile's bytes out, through the core's
//! `Value` (no Python objects are built), as `jetjson canon` does.

use jetjson::{DuplicateKeys, ReadOptions, Writer};
use pyo3::exceptions::{PyMemoryError, PySystemError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::dumps::{catching_out_of_memory, parse_indent, BytesMemory, OutputOptions};
use crate::errors::encode_error;
use crate::json_text::json_text;
use crate::loads::{str_option, Flag, Limit, Policy, MAX_DEPTH, MAX_SIZE};
use crate::rules;

/// JSON text (bytes, bytearray, memoryview or str) rewritten in a profile's
/// bytes, without building Python objects.
///
/// profile: "compact", "go" or "jcs", positionally or by keyword; there is
/// no default (canonical bytes are hashed and signed, so they name their
/// profile). Output keywords as for dumps; one that cannot change the
/// profile's bytes is refused (ValueError): with jcs every one (RFC 8785
/// fixes them), escape_html=True with go (on already), escape_html=False
/// with compact (off already). max_write_depth (default 512): the deepest
/// nesting written. Read limits: max_depth (default 512), max_size (bytes),
/// duplicate_keys ("error", "first", "last"), allow_bom. Invalid input
/// raises JSONDecodeError (pos counts characters for str input, bytes
/// otherwise).
///
/// Numbers are read as loads reads them (-0 is the int 0; a literal beyond
/// the float range is an error) and written as dumps writes them, so
/// canonicalize(x, p) == dumps(loads(x), profile=p) for every profile p.
/// The one exception: an int longer than sys.get_int_max_str_digits(),
/// which loads refuses and canonicalize (building no int) writes.
#[pyfunction]
#[pyo3(signature = (data, profile=None, *, sort_keys=None, escape_html=None, ascii_only=Flag(false), indent=None,
                    max_write_depth=None, max_depth=Limit(512), max_size=None,
                    duplicate_keys=Policy(DuplicateKeys::Error), allow_bom=Flag(false)),
       text_signature = "(data, profile, *, sort_keys=None, escape_html=None, ascii_only=False, indent=None, max_write_depth=512, max_depth=512, max_size=None, duplicate_keys='error', allow_bom=False)")]
#[allow(clippy::too_many_arguments)]
pub fn canonicalize<'py>(
    data: &Bound<'py, PyAny>,
    profile: Option<&Bound<'py, PyAny>>,
    sort_keys: Option<Flag>,
    escape_html: Option<Flag>,
    ascii_only: Flag,
    indent: Option<&Bound<'py, PyAny>>,
    max_write_depth: Option<rules::WriteDepth>,
    max_depth: Limit<MAX_DEPTH>,
    max_size: Option<Limit<MAX_SIZE>>,
    duplicate_keys: Policy,
    allow_bom: Flag,
) -> PyResult<Bound<'py, PyBytes>> {
    let py = data.py();
    // Errors made here, not lazily by pyo3 (`errors::made_now`).
    (|| {
        let profile = rules::required_profile("canonicalize", profile.map(|p| str_option("profile", p)).transpose()?)?;
        let (indent, tabs) = indent.map_or(Ok((None, false)), parse_indent)?;
        let (sort_keys, escape_html, ascii_only, allow_bom) = (sort_keys.map(|f| f.0), escape_html.map(|f| f.0), ascii_only.0, allow_bom.0);
        let requested = OutputOptions { profile, sort_keys, escape_html, ascii_only, indent, tabs, nan: "error" };
        rules::refuse_inapplicable(&requested)?;
        let write = requested.resolve()?.max_write_depth(max_write_depth.map_or(jetjson::DEFAULT_MAX_WRITE_DEPTH, |d| d.0));
        let duplicates = duplicate_keys.0;
        // `-0` is the int 0, as `loads` reads it, so that `canonicalize(x, p)`
        // is always `dumps(loads(x), profile=p)`.
        let mut read = ReadOptions::new().max_depth(max_depth.0).duplicate_keys(duplicates).allow_bom(allow_bom).negative_zero_int(true);
        if let Some(limit) = max_size {
            read = read.max_size(limit.0);
        }
        let text = json_text(data)?;
        let value = jetjson::__private::value_from_slice_recovering(&text.bytes, &read).map_err(|e| text.error(py, &e, data))?;
        // Written as `dumps` writes: into the result `bytes` itself, whose
        // growth failing is MemoryError (`catching_out_of_memory`), where a
        // `Vec` (`to_vec_with`) aborted the process and pyo3's `PyBytes::new`
        // panicked.
        write.check().map_err(|e| encode_error(py, e.to_string()))?;
        let (memory, len) = catching_out_of_memory(py, || {
            let mut w = Writer::with_memory(&write, BytesMemory::boxed());
            value
                .write_to(&mut w)
                .map_err(|e| encode_error(py, jetjson::__private::write_error_in(e, &text.bytes).to_string_with_root()))?;
            w.finish_into_memory().map_err(|e| PyMemoryError::new_err(e.message()))
        })?;
        drop(value);
        let Ok(mut memory) = memory.into_any().downcast::<BytesMemory>() else {
            return Err(PySystemError::new_err("jetjson.canonicalize: the writer's memory is not the one given"));
        };
        let bytes = memory.take_bytes(py, len);
        BytesMemory::recycle(memory);
        bytes
    })()
    .map_err(|e| crate::errors::made_now(py, e))
}

/// Core write errors as `$.path: message` (the root is `$`).
trait WithRoot {
    fn to_string_with_root(&self) -> String;
}

impl WithRoot for jetjson::Error {
    fn to_string_with_root(&self) -> String {
        match self.position() {
            // A write-depth error placed in the text read (`write_error_in`).
            Some(_) => self.to_string(),
            None => format!("{}: {}", self.path_string(), self.message()),
        }
    }
}
