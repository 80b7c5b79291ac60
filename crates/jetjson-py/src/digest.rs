//! `digest`: the hash of an object's bytes in a profile ("sha256:<hex>"),
//! hashed while they are written (the output is never held whole); and
//! `digest_bytes`: the hash of bytes as stored (OCI content addresses).

use jetjson::{Algorithm, Hasher, Writer};
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString};

use crate::dumps::{catching_out_of_memory, parse_indent, write_object_with, OutputOptions, Walking};
use crate::fallible::new_str;
use crate::loads::Flag;
use crate::rules;

/// The digest of `obj`'s JSON bytes in a profile, as "sha256:<hex>" (or
/// "sha512:<hex>"), hashed while they are written: equal to
/// hashlib.sha256(dumps(obj, profile=profile, ...)).
///
/// profile: "compact", "go" or "jcs", positionally or by keyword; there is
/// no default (a digest names the bytes it is over). Options as for dumps
/// (non_str_keys and omit_defaults included), and max_write_depth (default
/// 512); one that cannot change the profile's
/// bytes is refused (ValueError).
///
/// bytes, bytearray and memoryview are refused (TypeError): a digest here
/// is over an object's JSON encoding (for bytes a base64 string in go;
/// bytearray and memoryview have none), never over the bytes themselves. For the digest of stored bytes (a file, a
/// registry manifest) use digest_bytes(data).
#[pyfunction]
#[pyo3(signature = (obj, profile=None, algorithm=AlgorithmOption(Algorithm::Sha256), *, sort_keys=None, escape_html=None, ascii_only=Flag(false), indent=None,
                    default=None, nan=None, non_str_keys=Flag(false), omit_defaults=Flag(false),
                    max_write_depth=None),
       text_signature = "(obj, profile, algorithm='sha256', *, sort_keys=None, escape_html=None, ascii_only=False, indent=None, default=None, nan='error', non_str_keys=False, omit_defaults=False, max_write_depth=512)")]
#[allow(clippy::too_many_arguments)]
pub fn digest<'py>(
    obj: &Bound<'py, PyAny>,
    profile: Option<&Bound<'py, PyAny>>,
    algorithm: AlgorithmOption,
    sort_keys: Option<Flag>,
    escape_html: Option<Flag>,
    ascii_only: Flag,
    indent: Option<&Bound<'py, PyAny>>,
    default: Option<&Bound<'py, PyAny>>,
    nan: Option<&Bound<'py, PyAny>>,
    non_str_keys: Flag,
    omit_defaults: Flag,
    max_write_depth: Option<rules::WriteDepth>,
) -> PyResult<Bound<'py, PyString>> {
    if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() || obj.is_instance_of::<PyMemoryView>() {
        let kind = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        // Only bytes has a JSON encoding (a base64 string, in go alone);
        // bytearray and memoryview have none in any profile.
        let why = if obj.is_instance_of::<PyBytes>() {
            "would be hashed as its JSON encoding (in go a base64 string; the other profiles refuse bytes)"
        } else {
            "has no JSON encoding"
        };
        return Err(PyTypeError::new_err(format!(
            "digest() hashes an object's JSON encoding, not the bytes it holds, and a {kind} object {why}: \
             for the digest of stored bytes (a file, a registry manifest) use jetjson.digest_bytes(data); \
             to hash JSON text in a profile use digest_bytes(canonicalize(data, profile))"
        )));
    }
    let profile = rules::required_profile("digest", profile.map(|p| crate::loads::str_option("profile", p)).transpose()?)?;
    let nan = nan.map_or(Ok("error"), |n| crate::loads::str_option("nan", n))?;
    let (indent, tabs) = indent.map_or(Ok((None, false)), parse_indent)?;
    let (sort_keys, escape_html, ascii_only) = (sort_keys.map(|f| f.0), escape_html.map(|f| f.0), ascii_only.0);
    let requested = OutputOptions { profile, sort_keys, escape_html, ascii_only, indent, tabs, nan };
    rules::refuse_inapplicable(&requested)?;
    let options = requested.resolve()?.max_write_depth(max_write_depth.map_or(jetjson::DEFAULT_MAX_WRITE_DEPTH, |d| d.0));
    let mut w = Writer::with_sink(&options, Hasher::new(algorithm.0));
    // Making a str's UTF-8 form out of memory unwinds out of the walk
    // (`dumps::text`): raised here as MemoryError.
    let how = Walking { non_str_keys: non_str_keys.0, omit_defaults: omit_defaults.0 };
    catching_out_of_memory(obj.py(), || write_object_with(&mut w, obj, default, how))?;
    let hasher = w.finish().map_err(|e| crate::errors::encode_error(obj.py(), e.to_string()))?;
    // Made with the C API: pyo3's conversion of a returned `String`
    // panicked when CPython could not make the str (a PanicException out
    // of memory, not a MemoryError).
    new_str(obj.py(), &hasher.finish())
}

/// Inputs at least this large are hashed with the GIL released.
const DETACH_AT: usize = 64 << 10;

/// The digest of `data` exactly as given, as "sha256:<hex>" (or
/// "sha512:<hex>"): the content address OCI and Docker registries give a
/// manifest or blob (its bytes as stored, not any re-serialization).
/// data: bytes, bytearray, memoryview or any buffer; str is refused
/// (encode it first).
///
///     jetjson.digest_bytes(open("manifest.json", "rb").read())
#[pyfunction]
#[pyo3(signature = (data, algorithm=AlgorithmOption(Algorithm::Sha256)), text_signature = "(data, algorithm='sha256')")]
pub fn digest_bytes<'py>(data: &Bound<'py, PyAny>, algorithm: AlgorithmOption) -> PyResult<Bound<'py, PyString>> {
    // The result made with the C API (see `digest`).
    new_str(data.py(), &digest_bytes_text(data, algorithm)?)
}

fn digest_bytes_text(data: &Bound<'_, PyAny>, algorithm: AlgorithmOption) -> PyResult<String> {
    let algorithm = algorithm.0;
    let py = data.py();
    if let Ok(b) = data.cast::<PyBytes>() {
        // bytes are immutable: nothing can change them while other
        // threads run.
        let bytes = b.as_bytes();
        return Ok(if bytes.len() >= DETACH_AT {
            py.detach(|| jetjson::digest_bytes(bytes, algorithm))
        } else {
            jetjson::digest_bytes(bytes, algorithm)
        });
    }
    if data.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "digest_bytes() hashes bytes as stored, not str: read the file in binary mode (open(path, \"rb\")) or encode the text (data.encode())",
        ));
    }
    let Ok(buf) = PyBuffer::<u8>::get(data) else {
        // Bytes with a byte-order prefix (`<B`), copied as every function
        // reads a buffer; anything else is refused.
        return match crate::json_text::buffer_bytes(data) {
            Some(copy) => Ok(jetjson::digest_bytes(&copy?, algorithm)),
            None => Err(PyTypeError::new_err(crate::json_text::not_bytes(
                "digest_bytes() takes bytes, bytearray, memoryview or another buffer",
                data,
            ))),
        };
    };
    if buf.is_c_contiguous() {
        // SAFETY: the buffer is C-contiguous, held (`buf`) until the end of
        // this block, and `len_bytes` long from `buf_ptr`; the GIL is held
        // throughout, so no Python code can resize or write it meanwhile.
        let bytes = unsafe { std::slice::from_raw_parts(buf.buf_ptr() as *const u8, buf.len_bytes()) };
        let mut h = Hasher::new(algorithm);
        h.update(bytes);
        return Ok(h.finish());
    }
    drop(buf);
    // Not contiguous: copied, in C order, into a bytes object, whose
    // allocation fails with MemoryError (the Rust `Vec` of
    // `PyBuffer::to_vec`, as large as the data, aborted the process when
    // it could not be made).
    // SAFETY: GIL held (`py`); `data` is a live object exporting a buffer;
    // the new reference (null with an exception set on failure) goes to
    // the `Bound`.
    let copy = unsafe { pyo3::ffi::PyBytes_FromObject(data.as_ptr()) };
    if copy.is_null() {
        return Err(PyErr::fetch(py));
    }
    // SAFETY: a new bytes object, whose one reference the `Bound` takes.
    let copy = unsafe { Bound::from_owned_ptr(py, copy).cast_into_unchecked::<PyBytes>() };
    Ok(jetjson::digest_bytes(copy.as_bytes(), algorithm))
}

/// `algorithm` as both functions take it: "sha256" or "sha512", its errors
/// naming the option (`loads::wrong_type`).
pub struct AlgorithmOption(Algorithm);

impl<'a, 'py> FromPyObject<'a, 'py> for AlgorithmOption {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<AlgorithmOption> {
        let Ok(s) = obj.cast::<PyString>() else {
            return Err(crate::loads::wrong_type("algorithm", "\"sha256\" or \"sha512\"", &obj));
        };
        s.to_str()?.parse().map(AlgorithmOption).map_err(PyValueError::new_err)
    }
}
