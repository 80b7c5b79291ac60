//! Typed decode: JSON text straight into dataclasses, `TypedDict`s,
//! `NamedTuple`s, containers and scalars, checked as it is read.
//!
//! `Decoder(T)` compiles `T` once (`compile.rs` makes a plan, `plan.rs`);
//! `decode` runs the core parser with the typed builder (`builder.rs`),
//! which creates each object with its final value. `loads(data, type=T)`
//! keeps the compiled decoders of recent types (at most `CACHE_LIMIT`).
//! Errors: `errors.rs`. What a record's JSON members are: `crate::schema`.
//!
//! How dataclass instances are made: `object.__new__(cls)`, then each
//! field stored (into its `__slots__` member directly, or with
//! `object.__setattr__`, which is also what a frozen dataclass's generated
//! `__init__` does), then `__post_init__` if the class has one (with the
//! defaults of its `InitVar`s). The generated `__init__` is not called: it
//! would only do the same, slower. A class with its own `__init__` (or
//! `__new__`) is called instead, with the fields it takes as keyword
//! arguments; it then runs its own `__post_init__` if it wants one.

mod builder;
mod compile;
mod entry;
mod errors;
mod names;
mod plan;
mod text;
mod traverse;

use jetjson::{DuplicateKeys, ReadOptions};
use pyo3::exceptions::PyRecursionError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};

use crate::loads::input::{self, Source};
use crate::loads::location;
use crate::loads::{Flag, Limit, Policy, MAX_DEPTH, MAX_SIZE};
use builder::{Builder, Settings};
pub(crate) use entry::register as register_decode;
pub(crate) use errors::validation_error_type;
use plan::Plan;

/// Types whose decoders `loads(type=...)` keeps; the oldest goes first.
const CACHE_LIMIT: usize = 256;

/// A compiled type and the options to read it with.
///
/// `Decoder(type, *, strict=True, forbid_unknown_fields=False,
/// max_depth=512, max_size=None, duplicate_keys="error", allow_bom=False)`
/// compiles `type` once; `decode(data)` reads bytes, bytearray, memoryview
/// or str into it, raising `ValidationError` for JSON that does not fit.
#[pyclass(module = "jetjson", frozen)]
pub struct Decoder {
    plan: Plan,
    ty: Py<PyAny>,
    set: Settings,
    max_size: Option<usize>,
    allow_bom: bool,
    /// For `Decoder(Any)`: the options of the untyped read (`loads`'s,
    /// made once, and what its parser is given), which builds what the
    /// typed builder would, with less to set up per call.
    untyped: Option<Box<(ReadOptions, ReadOptions)>>,
}

#[pymethods]
impl Decoder {
    #[new]
    #[pyo3(signature = (r#type, *, strict = Flag(true), forbid_unknown_fields = Flag(false), max_depth = Limit(512), max_size = None, duplicate_keys = Policy(DuplicateKeys::Error), allow_bom = Flag(false)),
           text_signature = "(type, *, strict=True, forbid_unknown_fields=False, max_depth=512, max_size=None, duplicate_keys='error', allow_bom=False)")]
    fn new(
        r#type: &Bound<'_, PyAny>,
        strict: Flag,
        forbid_unknown_fields: Flag,
        max_depth: Limit<MAX_DEPTH>,
        max_size: Option<Limit<MAX_SIZE>>,
        duplicate_keys: Policy,
        allow_bom: Flag,
    ) -> PyResult<Decoder> {
        let (strict, forbid_unknown_fields, allow_bom) = (strict.0, forbid_unknown_fields.0, allow_bom.0);
        let py = r#type.py();
        // Errors made here, not lazily by pyo3 (`errors::made_now`).
        let made = |e| crate::errors::made_now(py, e);
        api(py).map_err(made)?;
        let plan = compile::compile(r#type).map_err(made)?;
        let max_size = max_size.map(|l| l.0);
        let untyped = matches!(plan.root, plan::Node::Any).then(|| {
            let mut options = ReadOptions::new().max_depth(max_depth.0).allow_bom(allow_bom).duplicate_keys(duplicate_keys.0);
            if let Some(limit) = max_size {
                options = options.max_size(limit);
            }
            Box::new(crate::loads::untyped_options(options))
        });
        Ok(Decoder {
            plan,
            ty: r#type.clone().unbind(),
            set: Settings { strict, forbid_unknown: forbid_unknown_fields, policy: duplicate_keys.0, max_depth: max_depth.0 },
            max_size,
            allow_bom,
            untyped,
        })
    }

    /// The cyclic GC's view: the type and every object of the plan.
    fn __traverse__(&self, visit: pyo3::pyclass::PyVisit<'_>) -> Result<(), pyo3::pyclass::PyTraverseError> {
        visit.call(&self.ty)?;
        self.plan.traverse(&visit)
    }

    /// The type the decoder reads.
    #[getter]
    fn r#type(&self, py: Python<'_>) -> Py<PyAny> {
        self.ty.clone_ref(py)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("Decoder({})", compile::repr(self.ty.bind(py)))
    }

    /// `Decoder[T]` is `Decoder` (for annotations).
    #[classmethod]
    fn __class_getitem__(cls: &Bound<'_, PyType>, _item: &Bound<'_, PyAny>) -> Py<PyType> {
        cls.clone().unbind()
    }
}

impl Decoder {
    /// decode(data, /): the JSON text `data` read as the decoder's type
    /// (the class's `decode` is entry.rs's descriptor, which calls this).
    pub(crate) fn decode(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Some(options) = &self.untyped {
            // Read as `loads` reads (the same objects as the typed builder
            // makes for `Any`). Whatever it refuses is read again by the
            // typed path below, so that the error is the decoder's own
            // (a ValidationError at its path for an int beyond CPython's
            // digit limit, for one): the cost of an error is a second
            // read, the success path sets up nothing typed.
            if let Some(obj) = crate::loads::untyped_or_none(py, data, &options.0, &options.1) {
                return Ok(obj);
            }
        }
        run(py, &self.plan, self.set, self.max_size, self.allow_bom, data, "Decoder.decode()")
    }
}

/// The datetime C API, imported once.
fn api(py: Python<'_>) -> PyResult<()> {
    crate::fallible::datetime_api(py).map(|_| ())
}

/// Stack a typed decode must find left when it starts, and a tagged
/// member's nested read when it starts (`Builder::nested`): room for one
/// decode's own frames (the parse is a loop, not a recursion) and for
/// raising its error, as `dumps` leaves (its walker's red zone). Threads
/// with small stacks (128 KiB) decode; a recursion through `__post_init__`
/// or nested tagged members stops with an error before the stack runs out.
pub(crate) const STACK_RED_ZONE: usize = 64 << 10;

/// One decode of `data` with `plan`.
fn run(
    py: Python<'_>,
    plan: &Plan,
    set: Settings,
    max_size: Option<usize>,
    allow_bom: bool,
    data: &Bound<'_, PyAny>,
    caller: &str,
) -> PyResult<Py<PyAny>> {
    // Python code run by a decode (`__post_init__`) may decode again: each
    // level costs stack, which Python's recursion limit does not see. One
    // decode (the parser, the builder, an error made) fits in the red zone.
    if let Some(left) = stacker::remaining_stack().filter(|&left| left < STACK_RED_ZONE) {
        return Err(PyRecursionError::new_err(format!(
            "not enough of the thread's stack left for a typed decode: one needs {} KiB and {} KiB are left (a thread started \
             after threading.stack_size(n) with a small n, or decodes nested in __post_init__)",
            STACK_RED_ZONE >> 10,
            left >> 10
        )));
    }
    let (input, is_str) = match input::source(data, caller)? {
        Source::Bytes(b) => (b, false),
        Source::Str(s) => (input::Input::Borrowed(s), true),
        Source::BadStr(index) => return Err(location::surrogate_error(py, data, index)),
    };
    let bytes = input.bytes();
    // Refused before a parse is set up, with the parser's error (its
    // message, at byte `limit`), as `loads` refuses it.
    if let Some(limit) = max_size.filter(|&limit| bytes.len() > limit) {
        return Err(crate::loads::oversized(py, limit, bytes, is_str, data));
    }
    // Lossless where a Decimal is read (`Plan::exact_numbers`).
    let mut options = ReadOptions::new()
        .max_depth(set.max_depth)
        .allow_bom(allow_bom)
        .duplicate_keys(builder::parser_policy(set.policy))
        .lossless_numbers(plan.exact_numbers);
    if let Some(limit) = max_size {
        options = options.max_size(limit);
    }
    let pause = plan.pure.then(crate::loads::gc::GcPause::new);
    // The builder is dropped in place at the end of this block (a `drop(b)`
    // or a `finish(self)` moved it, a `memcpy` of the struct per decode).
    let (result, failure, recheck, built) = {
        let mut b = Builder::new(py, plan, &plan.root, set, bytes, bytes, "$".into());
        let result = jetjson::parse::parse(bytes, &options, &mut b);
        let failure = b.failure.take();
        let built = if result.is_ok() { b.finish() } else { None };
        (result, failure, b.recheck, built)
    };
    drop(pause);
    if result.is_ok() && recheck && set.policy == DuplicateKeys::Error {
        if let Some(err) = errors::repeated_name(py, bytes, is_str, data) {
            if let Some(obj) = built {
                // SAFETY: an owned reference, released.
                unsafe { pyo3::ffi::Py_DECREF(obj) };
            }
            return Err(err);
        }
    }
    match result {
        Ok(()) => match built {
            // SAFETY: an owned reference from the builder's stack.
            Some(obj) => Ok(unsafe { Bound::from_owned_ptr(py, obj) }.unbind()),
            None => Ok(py.None()),
        },
        Err(e) => Err(errors::decode_failure(py, failure, &e, bytes, is_str, data)),
    }
}

/// `loads(data, type=T, ...)`: the decoder of `T` (compiled once and kept,
/// for at most `CACHE_LIMIT` types), run with the call's options.
#[allow(clippy::too_many_arguments)]
pub(crate) fn loads_typed(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    ty: &Bound<'_, PyAny>,
    strict: bool,
    forbid_unknown_fields: bool,
    max_depth: usize,
    max_size: Option<usize>,
    policy: DuplicateKeys,
    allow_bom: bool,
) -> PyResult<Py<PyAny>> {
    static CACHE: pyo3::sync::PyOnceLock<Py<PyDict>> = pyo3::sync::PyOnceLock::new();
    let cache = CACHE.get_or_try_init(py, || crate::fallible::new_dict(py).map(Bound::unbind))?.bind(py);
    let cached = match cache.get_item(ty) {
        Ok(Some(d)) => Some(d.cast_into::<Decoder>()?),
        // Unhashable types are compiled each time.
        Ok(None) | Err(_) => None,
    };
    let decoder = match cached {
        Some(d) => d,
        None => {
            let d =
                Bound::new(py, Decoder::new(ty, Flag(true), Flag(false), Limit(512), None, Policy(DuplicateKeys::Error), Flag(false))?)?;
            if ty.hash().is_ok() {
                if cache.len() >= CACHE_LIMIT {
                    if let Some(oldest) = crate::fallible::dict_keys(cache)?.iter().next() {
                        cache.del_item(oldest)?;
                    }
                }
                cache.set_item(ty, &d)?;
            }
            d
        }
    };
    let set = Settings { strict, forbid_unknown: forbid_unknown_fields, policy, max_depth };
    // `decoder` is held for the whole call.
    run(py, &decoder.get().plan, set, max_size, allow_bom, data, "loads()")
}
