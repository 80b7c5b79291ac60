//! Python classes the walker recognises beyond the built-in types, looked up
//! once per process. Built-in types are compared by address in `walk.rs`;
//! these are only consulted on the cold path.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use pyo3::PyTypeInfo;

pub struct Known {
    pub datetime: Py<PyType>,
    pub date: Py<PyType>,
    pub time: Py<PyType>,
    pub uuid: Py<PyType>,
    pub decimal: Py<PyType>,
    pub enum_base: Py<PyType>,
    pub raw: *mut ffi::PyTypeObject,
    /// Interned attribute names.
    pub dataclass_fields: Py<PyAny>,
    pub isoformat: Py<PyAny>,
    pub value: Py<PyAny>,
    pub hex: Py<PyAny>,
    /// The interpreter's dicts have the layout `dictiter.rs` reads.
    pub direct_dicts: bool,
    /// The interpreter's ints have CPython 3.11's layout (`walk::small_int`).
    pub ints_311: bool,
}

// SAFETY: `raw` points at a type object that lives as long as the module
// (pyo3 keeps the class's type object alive); it is only read under the GIL.
unsafe impl Send for Known {}
// SAFETY: as above; nothing in `Known` is mutated after initialisation.
unsafe impl Sync for Known {}

static KNOWN: PyOnceLock<Known> = PyOnceLock::new();

pub fn known(py: Python<'_>) -> PyResult<&'static Known> {
    KNOWN.get_or_try_init(py, || {
        let class =
            |module: &str, name: &str| -> PyResult<Py<PyType>> { Ok(py.import(module)?.getattr(name)?.cast_into::<PyType>()?.unbind()) };
        let intern = |s: &str| -> Py<PyAny> { pyo3::types::PyString::intern(py, s).into_any().unbind() };
        Ok(Known {
            datetime: class("datetime", "datetime")?,
            date: class("datetime", "date")?,
            time: class("datetime", "time")?,
            uuid: class("uuid", "UUID")?,
            decimal: class("decimal", "Decimal")?,
            enum_base: class("enum", "Enum")?,
            raw: crate::raw::Raw::type_object_raw(py),
            dataclass_fields: intern("__dataclass_fields__"),
            isoformat: intern("isoformat"),
            value: intern("value"),
            hex: intern("hex"),
            ints_311: {
                let v = py.version_info();
                (v.major, v.minor) == (3, 11)
            },
            direct_dicts: {
                let v = py.version_info();
                super::dictiter::layout_supported(u32::from(v.major), u32::from(v.minor))
                    && std::env::var_os("JETJSON_NO_DIRECT_DICTS").is_none()
            },
        })
    })
}
