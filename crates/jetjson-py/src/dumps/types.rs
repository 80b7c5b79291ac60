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
    /// The method definitions of `dict.items` and `OrderedDict.items`
    /// (a bound `items` with either is not a subclass's own).
    pub dict_items: *mut ffi::PyMethodDef,
    pub ordered_dict_items: *mut ffi::PyMethodDef,
    pub raw: *mut ffi::PyTypeObject,
    /// Interned attribute names.
    pub dataclass_fields: Py<PyAny>,
    pub isoformat: Py<PyAny>,
    pub utcoffset: Py<PyAny>,
    pub value: Py<PyAny>,
    pub hex: Py<PyAny>,
    pub items: Py<PyAny>,
    /// `datetime.timezone.utc` (a datetime with it has a zero offset).
    pub utc: *mut ffi::PyObject,
    /// `datetime.timedelta`.
    pub timedelta: *mut ffi::PyTypeObject,
    /// Where `uuid.UUID` keeps its `int` slot in an instance (0: unknown,
    /// read through `.hex` then).
    pub uuid_int_offset: isize,
    /// `enum.Enum`'s `value` property, and the name of the instance
    /// attribute it reads.
    pub enum_value: *mut ffi::PyObject,
    pub value_attr: Py<PyAny>,
    /// The interpreter's dicts have the layout `dictiter.rs` reads.
    pub direct_dicts: bool,
    /// The interpreter's ints have CPython 3.11's layout (`walk::small_int`).
    pub ints_311: bool,
}

// SAFETY: `raw` points at a type object that lives as long as the module
// (pyo3 keeps the class's type object alive), `utc` and `timedelta` at
// objects of the datetime module, which stays loaded, `enum_value` at a
// descriptor of `enum.Enum` (held by `enum_base`), `dict_items` and
// `ordered_dict_items` at method definitions, static data of CPython
// (only compared, never read through); they are only read
// under the GIL.
unsafe impl Send for Known {}
// SAFETY: as above; nothing in `Known` is mutated after initialisation.
unsafe impl Sync for Known {}

static KNOWN: PyOnceLock<Known> = PyOnceLock::new();

/// `known`, only once it has been made (no Python code run, nothing made
/// or dropped): for fast.rs, where making it (imports; `Py<T>`s dropped on
/// failure) is left to the general path.
#[inline(always)]
pub fn known_if_made(py: Python<'_>) -> Option<&'static Known> {
    KNOWN.get(py)
}

pub fn known(py: Python<'_>) -> PyResult<&'static Known> {
    KNOWN.get_or_try_init(py, || {
        // Strs made with the C API (`fallible::interned`): out of memory, the
        // first call raises MemoryError instead of aborting.
        let intern = |s: &str| -> PyResult<Py<PyAny>> { Ok(crate::fallible::interned(py, s)?.into_any().unbind()) };
        let class = |module: &str, name: &str| -> PyResult<Py<PyType>> {
            Ok(py
                .import(crate::fallible::interned(py, module)?)?
                .getattr(crate::fallible::interned(py, name)?)?
                .cast_into::<PyType>()?
                .unbind())
        };
        Ok(Known {
            datetime: class("datetime", "datetime")?,
            date: class("datetime", "date")?,
            time: class("datetime", "time")?,
            uuid: class("uuid", "UUID")?,
            decimal: class("decimal", "Decimal")?,
            enum_base: class("enum", "Enum")?,
            dict_items: items_def(py, pyo3::types::PyDict::new(py).as_any())?,
            ordered_dict_items: items_def(py, &class("collections", "OrderedDict")?.bind(py).call0()?)?,
            raw: crate::raw::Raw::type_object_raw(py),
            dataclass_fields: intern("__dataclass_fields__")?,
            isoformat: intern("isoformat")?,
            utcoffset: intern("utcoffset")?,
            // SAFETY: the datetime C API is imported here (GIL held); its
            // UTC singleton and types live as long as the datetime module,
            // which `datetime` (imported above) keeps loaded.
            utc: unsafe { (*crate::fallible::datetime_api(py)?).TimeZone_UTC },
            // SAFETY: as above.
            timedelta: unsafe { (*ffi::PyDateTimeAPI()).DeltaType },
            uuid_int_offset: {
                let uuid = class("uuid", "UUID")?;
                // SAFETY: a lookup in a live type; the descriptor is read
                // as a member descriptor only when it is one.
                unsafe {
                    let d = _PyType_Lookup(uuid.as_ptr() as *mut ffi::PyTypeObject, intern("int")?.as_ptr());
                    if !d.is_null() && ffi::Py_TYPE(d) == std::ptr::addr_of_mut!(ffi::PyMemberDescr_Type) {
                        let m = (*(d as *mut ffi::PyMemberDescrObject)).d_member;
                        // T_OBJECT_EX: an object pointer, NULL when unset.
                        if (*m).type_code == 16 {
                            (*m).offset
                        } else {
                            0
                        }
                    } else {
                        0
                    }
                }
            },
            enum_value: {
                let e = class("enum", "Enum")?;
                // SAFETY: a lookup in a live type; the class (kept by
                // `enum_base`) keeps the descriptor alive.
                unsafe { _PyType_Lookup(e.as_ptr() as *mut ffi::PyTypeObject, intern("value")?.as_ptr()) }
            },
            value_attr: intern("_value_")?,
            value: intern("value")?,
            hex: intern("hex")?,
            items: intern("items")?,
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

/// The method definition behind `obj.items` (a built-in method), or null.
fn items_def(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<*mut ffi::PyMethodDef> {
    let m = obj.getattr(crate::fallible::interned(py, "items")?)?;
    // SAFETY: `m` is live; read as a built-in function object only when it is one.
    Ok(unsafe {
        if ffi::PyCFunction_Check(m.as_ptr()) != 0 {
            (*(m.as_ptr() as *mut ffi::PyCFunctionObject)).m_ml
        } else {
            std::ptr::null_mut()
        }
    })
}

extern "C" {
    // CPython's type attribute lookup through the MRO (with the method
    // cache), returning a borrowed reference or null; exported by every
    // CPython 3 build. Runs no Python code (str keys, dict lookups).
    pub fn _PyType_Lookup(ty: *mut ffi::PyTypeObject, name: *mut ffi::PyObject) -> *mut ffi::PyObject;
}

/// Whether `ty` has the same `name` attribute as `base` (not overridden by
/// a subclass), compared by address.
///
/// # Safety
/// `ty` and `base` are live types, `name` a str; GIL held.
pub unsafe fn inherits(ty: *mut ffi::PyTypeObject, base: *mut ffi::PyTypeObject, name: *mut ffi::PyObject) -> bool {
    // SAFETY: as the caller guarantees; both lookups are borrowed references
    // compared, never used.
    unsafe {
        let mine = _PyType_Lookup(ty, name);
        !mine.is_null() && mine == _PyType_Lookup(base, name)
    }
}

/// Whether `ty`'s `name` attribute is `attr` itself (not overridden).
///
/// # Safety
/// `ty` is a live type, `name` a str; GIL held.
pub unsafe fn inherits_exactly(ty: *mut ffi::PyTypeObject, attr: *mut ffi::PyObject, name: *mut ffi::PyObject) -> bool {
    // SAFETY: as the caller guarantees; the lookup's borrowed result is
    // only compared.
    unsafe { _PyType_Lookup(ty, name) == attr }
}
