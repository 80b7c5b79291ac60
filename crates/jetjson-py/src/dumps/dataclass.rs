//! Dataclasses as schemas: each class's plan, made the first time one of
//! its instances is written and kept on the class itself.
//!
//! `dataclasses.fields(cls)` (which leaves out ClassVar and InitVar
//! pseudo-fields) is a Python-level call; doing it per instance would cost
//! more than writing the instance. A plan keeps each field's name object and
//! text, the field orders of both sorted key orders, and the names encoded
//! for each style used (a `Shape` per escape set and order).
//!
//! Where it is kept: in a `PlanHolder` object in the class's own `__dict__`
//! (`__jetjson_plan__`), as msgspec keeps its per-class data, so a plan lives
//! and dies with its class: classes made at run time are not kept alive by
//! a process-wide cache, and no address can be reused while a plan for it
//! exists. The plan holds objects that may lead back to the class (the
//! fields dict, a default or default factory closing over the class, a
//! `ClassVar` registry of instances, the tag value): the holder shows those
//! references to the cyclic GC (`__traverse__`), or such a class would never
//! be freed once one of its instances was written. A plan is trusted only
//! for the class it was made for and only while the class has the type
//! version tag it had then (CPython gives a class a new tag whenever it or
//! a base class changes): a class that is redecorated or otherwise changed
//! is planned again.

use std::cell::RefCell;
use std::rc::Rc;

use jetjson::{KeyOrder, Sink, Writer};
use pyo3::ffi::{self, PyObject};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};

use super::shapes::{Shape, Tag};
use super::walk::Hold;

use super::types::_PyType_Lookup;

/// The attribute of a class's own dict holding its `PlanHolder`.
const ATTRIBUTE: &str = "__jetjson_plan__";

/// A class's plan as a Python object, kept in the class's dict: the cyclic
/// GC sees the objects the plan holds (`__traverse__`). It has no
/// `__clear__`: the plan never changes once set (every cycle through it
/// passes through the class, whose own clear empties its dict and so frees
/// the holder), and when the holder dies its plan goes to the graveyard
/// unfreed (`Drop`).
///
/// The holder is made empty and given its plan once made (`make`): making
/// a GC-tracked object may start a collection, which runs Python code
/// (finalizers, `gc.callbacks`) that could change the class, so it is made
/// before the plan's reads are decided, not in the window between deciding
/// them and taking the class's version tag.
#[pyclass(module = "jetjson", name = "_DataclassPlan", frozen)]
pub struct PlanHolder {
    /// Empty until `make` sets it, and inside `Drop`.
    plan: std::cell::OnceCell<Box<Plan>>,
}

// SAFETY: the plan (`Rc`, `RefCell`, raw pointers) is only touched with the
// GIL held, and the extension is not built for free-threaded CPython
// (lib.rs): no two threads ever use it at once.
unsafe impl Send for PlanHolder {}
// SAFETY: as above.
unsafe impl Sync for PlanHolder {}

#[pymethods]
impl PlanHolder {
    /// Every object the plan holds a reference to: the fields dict, the
    /// defaults, the tag value, and each field name once for the plan and
    /// once per shape (each shape holds a reference to each name: its keys
    /// are the plan's names, `Plan::shape`). A shape list borrowed at this
    /// moment is skipped: references left unvisited keep objects alive
    /// (a leak at worst, never a free of something in use).
    fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        let Some(plan) = self.plan.get() else { return Ok(()) };
        if let Some(fields) = &plan.fields {
            visit.call(&fields.dict)?;
        }
        for default in &plan.defaults {
            if let Omit::Value(d) = default {
                visit.call(d)?;
            }
        }
        if let Some((_, value)) = &plan.tag {
            visit.call(value)?;
        }
        let shapes = plan.shapes.try_borrow().map_or(0, |s| s.len());
        for (name, _) in &plan.names {
            for _ in 0..=shapes {
                visit.call(name)?;
            }
        }
        Ok(())
    }
}

impl Drop for PlanHolder {
    /// Hands the plan to the graveyard, to be freed at the start of the
    /// next `dumps` call or the next `make` (`bury`). Freeing a plan releases objects (the field names, the
    /// defaults, the tag's value) whose `__del__` may run any Python code,
    /// which must not run here: a holder dies inside a change of its
    /// class's dict (our own store in `make`, the user's `setattr` or
    /// `del`), before CPython gives the class a new version tag, so a
    /// `dumps` run from such a `__del__` would find the dying plan in
    /// `find`'s cache.
    fn drop(&mut self) {
        let Some(plan) = self.plan.take() else { return };
        // SAFETY: the GIL is held (CPython deallocates objects with it);
        // the graveyard runs no Python code here.
        let graves = unsafe { &mut *GRAVEYARD.0.get() };
        if graves.try_reserve(1).is_ok() {
            graves.push(*plan);
        } else {
            // No room to keep it: leaked rather than freed here.
            std::mem::forget(plan);
        }
    }
}

/// The holder type (made at module set-up, `register`).
fn holder_type(py: Python<'_>) -> *mut ffi::PyTypeObject {
    <PlanHolder as pyo3::PyTypeInfo>::type_object_raw(py)
}

/// Makes the holder type, at module set-up (so that no `dumps` makes it).
pub fn register(py: Python<'_>) {
    let _ = holder_type(py);
}

/// How a field's value is read from an instance, decided when the class is
/// planned (and trusted while its version tag is unchanged): without
/// `getattr` where CPython's own lookup would find the value in a place we
/// can read (no data descriptor in the way, the type's own generic
/// attribute lookup), else through `getattr`.
#[derive(Clone, Copy)]
enum Read {
    /// A `__slots__` member at this offset (NULL when unset: `getattr`
    /// raises the AttributeError).
    Slot(isize),
    /// The instance's own attributes (CPython 3.11 managed dict): the
    /// values array at this index of the type's shared keys, if the name is
    /// one of them, or the instance's dict once it has one.
    Managed(Option<usize>),
    /// The instance dict at the type's `tp_dictoffset`.
    Dict(isize),
    GetAttr,
}

pub struct Plan {
    /// The class it was made for (an address to compare, never read).
    class: usize,
    /// Each field's `Read`, and for `Managed` the shared keys they index.
    reads: Vec<Read>,
    keys: *const std::ffi::c_void,
    /// The class's version tag once the plan was stored (0: none, so the
    /// plan is never trusted again and the class is planned per instance).
    version: std::cell::Cell<u32>,
    /// The class's `__dataclass_fields__` dict (held) as it was before the
    /// fields were read: a change to it in place (`del
    /// C.__dataclass_fields__["b"]`) gives the class no new version tag.
    fields: Option<Fields>,
    /// The fields written, in declaration order (fields out of JSON, those
    /// named with `_` and no JSON name, left out): the attribute name's str
    /// object (for `getattr`) and its text.
    pub names: Vec<(Py<PyString>, String)>,
    /// Each field's JSON name (`crate::schema`: metadata, rename rule).
    pub json: Vec<String>,
    /// Each field's default, as `omit_defaults` compares it.
    pub defaults: Vec<Omit>,
    /// The class's tag member (JSON name, value), written first.
    pub tag: Option<(String, Py<PyAny>)>,
    utf8: Vec<usize>,
    utf16: Vec<usize>,
    /// Names encoded per style (escape set and order), made on first use.
    shapes: RefCell<Vec<Rc<Shape>>>,
}

/// A class's `__dataclass_fields__` dict and its stamp: the dict's version
/// tag where the extension reads the dict layout (CPython changes it on
/// every modification), else its length (which catches a field added or
/// deleted, not one replaced).
struct Fields {
    dict: Py<PyAny>,
    stamp: u64,
    versioned: bool,
}

impl Fields {
    /// The stamp of `dict` (a live exact dict) now.
    ///
    /// # Safety
    /// `dict` is a live dict; GIL held; `versioned` only on an interpreter
    /// whose dict layout `dictiter` reads.
    #[inline(always)]
    unsafe fn stamp_of(dict: *mut PyObject, versioned: bool) -> u64 {
        // SAFETY: as the caller guarantees.
        unsafe {
            if versioned {
                super::dictiter::version(dict)
            } else {
                ffi::PyDict_Size(dict) as u64
            }
        }
    }
}

impl Plan {
    /// Whether the class's fields dict is as it was when the plan was made
    /// (a plan without one is never stored on its class). Runs no Python
    /// code.
    #[inline(always)]
    fn fields_unchanged(&self) -> bool {
        match &self.fields {
            // SAFETY: the dict is held by the plan; GIL held (callers run
            // inside `dumps`).
            Some(f) => (unsafe { Fields::stamp_of(f.dict.as_ptr(), f.versioned) }) == f.stamp,
            None => false,
        }
    }

    /// Whether `value` (field `i`'s, live) is the field's default, for
    /// `omit_defaults`: the default value itself or one equal to it, or an
    /// empty list, dict, set or tuple for those factories. May run Python
    /// code (`__eq__`).
    ///
    /// # Safety
    /// `value` is a live object; GIL held.
    pub unsafe fn is_default(&self, py: Python<'_>, i: usize, value: *mut PyObject) -> PyResult<bool> {
        // SAFETY: `value` is live; the default is held by the plan; types
        // are compared by address.
        unsafe {
            match &self.defaults[i] {
                Omit::Never => Ok(false),
                Omit::Value(d) => {
                    if d.as_ptr() == value {
                        return Ok(true);
                    }
                    match ffi::PyObject_RichCompareBool(value, d.as_ptr(), ffi::Py_EQ) {
                        -1 => Err(PyErr::fetch(py)),
                        r => Ok(r == 1),
                    }
                }
                Omit::Empty(ty) => Ok(ffi::Py_TYPE(value) == *ty && ffi::PyObject_Size(value) == 0),
            }
        }
    }

    /// Field indexes in the order the style asks for.
    fn order(&self, order: KeyOrder) -> Vec<u32> {
        match order {
            KeyOrder::Insertion => (0..self.names.len() as u32).collect(),
            KeyOrder::Utf8 => self.utf8.iter().map(|&i| i as u32).collect(),
            KeyOrder::Utf16 => self.utf16.iter().map(|&i| i as u32).collect(),
        }
    }

    /// The field names encoded as `w` writes them, in `tag.by` order (made
    /// on first use); `None` if a name has no UTF-8 text.
    pub fn shape<S: Sink>(&self, tag: Tag, w: &Writer<S>) -> Option<Rc<Shape>> {
        if let Some(shape) = self.shapes.borrow().iter().find(|s| s.tag() == tag) {
            return Some(Rc::clone(shape));
        }
        let keys: Vec<*mut PyObject> = self.names.iter().map(|(name, _)| name.as_ptr()).collect();
        // SAFETY: the name objects are live (held by the plan); GIL held
        // (the walker runs inside a Python call).
        let shape =
            Rc::new(unsafe { Shape::new(tag, &keys, &self.order(tag.by), w, usize::MAX, |i| Some(self.json[i as usize].as_str())) }?);
        self.shapes.borrow_mut().push(Rc::clone(&shape));
        Some(shape)
    }
}

/// A plan held for the time an instance is written: a reference to its
/// holder keeps it alive even if Python code run meanwhile replaces the
/// class's attribute.
pub struct Held {
    holder: *mut PyObject,
    plan: *const Plan,
}

impl Held {
    pub fn plan(&self) -> &Plan {
        // SAFETY: the holder, which owns the plan, is held by `self`.
        unsafe { &*self.plan }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        // SAFETY: we own one reference to the holder; GIL held (dumps).
        unsafe { ffi::Py_DECREF(self.holder) };
    }
}

/// The class's version tag, if it has a valid one.
///
/// # Safety
/// `ty` is a live type; GIL held.
unsafe fn version_of(ty: *mut ffi::PyTypeObject) -> u32 {
    // SAFETY: reads two fields of a live type object.
    unsafe {
        // The field itself, not `PyType_GetFlags` (a call per field read).
        if (*ty).tp_flags & ffi::Py_TPFLAGS_VALID_VERSION_TAG == 0 {
            return 0;
        }
        (*ty).tp_version_tag
    }
}

/// The plan stored on `ty` itself, if it is still good for it.
///
/// # Safety
/// `ty` is a live type; GIL held.
pub unsafe fn find(py: Python<'_>, ty: *mut ffi::PyTypeObject) -> Result<Option<Held>, ()> {
    // SAFETY: as the caller guarantees.
    if let Some(held) = unsafe { find_recent(ty) } {
        return Ok(Some(held));
    }
    // SAFETY: `ty` is live. Not a recent class (`find_recent`, whose cache
    // entries stay good because a change to a class's dict gives it a new
    // tag before any Python code runs, and a dying holder's plan goes to
    // the graveyard, `PlanHolder::drop`): its own dict (not its bases') is
    // looked up with a str key. That lookup runs Python code when the dict
    // holds another key of the same hash (its `__eq__`), which may change
    // the class, move the object to another class and free this one: the
    // class is held while it is looked up, the holder found is held at
    // once, and the plan is checked against the class as it is afterwards.
    unsafe {
        let slot = &RECENT.0[(ty as usize >> 4) % RECENT_SLOTS];
        let dict = (*ty).tp_dict;
        if dict.is_null() {
            return Ok(None);
        }
        let Some(name) = attribute(py) else { return Ok(None) };
        let _class = Hold::new(ty.cast());
        let holder = ffi::PyDict_GetItemWithError(dict, name);
        if holder.is_null() {
            // Not there, or a key's `__eq__` raised (then raised by the
            // caller, not swallowed).
            return if ffi::PyErr_Occurred().is_null() { Ok(None) } else { Err(()) };
        }
        // Held before anything else can run.
        ffi::Py_INCREF(holder);
        let mut held = Held { holder, plan: std::ptr::null() };
        if ffi::Py_TYPE(holder) != holder_type(py) {
            return Ok(None);
        }
        // A live holder of exactly our (frozen) type: its plan is there.
        let Some(plan) = pyo3::Borrowed::from_ptr(py, holder).cast_unchecked::<PlanHolder>().get().plan.get() else {
            return Ok(None);
        };
        let plan = &**plan as *const Plan;
        let version = version_of(ty);
        if (*plan).class != ty as usize || version == 0 || (*plan).version.get() != version || !(*plan).fields_unchanged() {
            return Ok(None);
        }
        slot.set(Recent { ty: ty as usize, version, holder, plan });
        held.plan = plan;
        Ok(Some(held))
    }
}

/// The plan of `ty` if it was found lately (`find`'s cache of recent
/// classes): runs no Python code, so `other` looks here before it checks
/// the stack.
///
/// # Safety
/// `ty` is a live type; GIL held.
#[inline(always)]
pub unsafe fn find_recent(ty: *mut ffi::PyTypeObject) -> Option<Held> {
    // SAFETY: `ty` is live. A cache entry with this class's address and
    // its current (valid, non-zero) version tag was stored for this very
    // class (tags are never reused), unchanged since: its dict still holds
    // the holder (a change to the dict gives the class a new tag before
    // any Python code runs; a dying holder's plan goes to the graveyard,
    // `PlanHolder::drop`), so the holder is alive.
    unsafe {
        let version = version_of(ty);
        let seen = RECENT.0[(ty as usize >> 4) % RECENT_SLOTS].get();
        if version != 0 && seen.ty == ty as usize && seen.version == version && (*seen.plan).fields_unchanged() {
            ffi::Py_INCREF(seen.holder);
            return Some(Held { holder: seen.holder, plan: seen.plan });
        }
        None
    }
}

/// A class whose plan was found lately: its address and version tag, and
/// its holder and plan (borrowed: see `find` for why they are alive
/// whenever the address and tag match).
#[derive(Clone, Copy)]
struct Recent {
    ty: usize,
    version: u32,
    holder: *mut PyObject,
    plan: *const Plan,
}

const RECENT_SLOTS: usize = 64;

struct RecentCache([std::cell::Cell<Recent>; RECENT_SLOTS]);

// SAFETY: only touched under the GIL (`find`), which the extension needs
// (it is not built for free-threaded CPython, lib.rs).
unsafe impl Sync for RecentCache {}

static RECENT: RecentCache = RecentCache(
    [const { std::cell::Cell::new(Recent { ty: 0, version: 0, holder: std::ptr::null_mut(), plan: std::ptr::null() }) }; RECENT_SLOTS],
);

/// Makes the plan of `class` (a dataclass) and stores it on the class.
/// Runs Python code (`dataclasses.fields`).
pub fn make(class: &Bound<'_, PyType>, direct: bool, versioned: bool) -> PyResult<Held> {
    let py = class.py();
    // Plans dropped since the last plan was made are freed here, where
    // Python code may run (see `drop_plan`).
    bury();
    // The fields dict, stamped before anything reads the fields: a change
    // made meanwhile (by Python code run below) leaves the plan stale on
    // arrival, so it is made again at the next instance. Only an exact dict
    // (another mapping has no stamp: planned per instance).
    let fields = match crate::schema::optional_attr(class, pyo3::intern!(py, "__dataclass_fields__"))? {
        Some(d) if d.is_exact_instance_of::<pyo3::types::PyDict>() => {
            // SAFETY: `d` is a live exact dict; GIL held; `versioned` only
            // where the layout is read (the caller's `direct_dicts`).
            let stamp = unsafe { Fields::stamp_of(d.as_ptr(), versioned) };
            Some(Fields { dict: d.unbind(), stamp, versioned })
        }
        _ => None,
    };
    // The members, JSON names, defaults and tag, as typed decode reads them.
    let Some(record) = crate::schema::record(class)? else {
        return Err(pyo3::exceptions::PyTypeError::new_err("not a dataclass"));
    };
    let (mut names, mut json, mut defaults) = (Vec::new(), Vec::new(), Vec::new());
    for field in record.fields.into_iter().filter(|f| f.in_json) {
        let text = field.name.bind(py).to_str()?.to_owned();
        names.push((field.name, text));
        json.push(field.json_text);
        defaults.push(match field.default {
            crate::schema::Default::Value(v) => Omit::Value(v),
            crate::schema::Default::Factory(f) => Omit::empty_of(f.bind(py)),
            _ => Omit::Never,
        });
    }
    let tag = record.tag.map(|t| (t.field_text, t.value));
    let mut utf8: Vec<usize> = (0..json.len()).collect();
    utf8.sort_by(|&a, &b| json[a].as_bytes().cmp(json[b].as_bytes()));
    let mut utf16: Vec<usize> = (0..json.len()).collect();
    utf16.sort_by(|&a, &b| jetjson::compare_utf16(json[a].as_bytes(), json[b].as_bytes()));
    let ty = class.as_ptr() as *mut ffi::PyTypeObject;
    // The holder, made (a GC-tracked object: a collection may start and run
    // Python code) before the window below.
    let holder = Py::new(py, PlanHolder { plan: std::cell::OnceCell::new() })?;
    // From here until the plan has its version tag no Python code may run,
    // or the reads decided would not be those of the class as stamped: a
    // class whose dicts (its own and its bases') hold a key other than an
    // exact str, whose lookup may call that key's `__eq__`, is planned for
    // one instance at a time and never trusted (all its fields through
    // getattr).
    // A class without a fields dict to stamp is never trusted either.
    // SAFETY: `ty` is a live class (held by `class`); GIL held.
    let trusted = fields.is_some() && unsafe { str_keys_only(ty) };
    let (reads, keys) = if trusted {
        // SAFETY: as above; lookups in these dicts run no Python code.
        unsafe { reads_of(ty, &names, direct) }
    } else {
        (vec![Read::GetAttr; names.len()], std::ptr::null())
    };
    let plan = Box::new(Plan {
        class: ty as usize,
        reads,
        keys,
        version: std::cell::Cell::new(0),
        fields,
        names,
        json,
        defaults,
        tag,
        utf8,
        utf16,
        shapes: RefCell::new(Vec::new()),
    });
    // The box's address is the plan's for as long as the holder lives.
    let plan_at = &*plan as *const Plan;
    if holder.get().plan.set(plan).is_err() {
        // Not reached: the holder is new and only `make` sets plans.
        return Err(pyo3::exceptions::PySystemError::new_err("jetjson: a dataclass plan holder was set twice"));
    }
    let held = Held { holder: holder.into_ptr(), plan: plan_at };
    if !trusted {
        return Ok(held);
    }
    // Stored in the class's own dict directly (not through setattr, which a
    // metaclass could override), then the class is marked changed, as
    // CPython asks after a direct change, and a lookup gives it a new
    // version tag, which the plan records. A class whose dict cannot take
    // it is planned again for each instance. Whatever the dict held under
    // that name is released only after the tag is recorded (releasing it
    // may run Python code; a plan of ours goes to the graveyard anyway).
    // SAFETY: `ty` is a live heap type (a dataclass) whose dicts hold only
    // exact str keys (lookups and stores run no Python code); GIL held.
    unsafe {
        let dict = (*ty).tp_dict;
        let name = attribute(py);
        if let (false, Some(name)) = (dict.is_null(), name) {
            let before = ffi::PyDict_GetItemWithError(dict, name);
            if before.is_null() {
                ffi::PyErr_Clear();
            }
            // The class's own attribute of that name (a `__slots__` member
            // named so, a value the user set) is left as it is: the class is
            // planned per instance.
            if !before.is_null() && ffi::Py_TYPE(before) != holder_type(py) {
                return Ok(held);
            }
            let _before = (!before.is_null()).then(|| Hold::new(before));
            if ffi::PyDict_SetItem(dict, name, held.holder) != 0 {
                ffi::PyErr_Clear();
                return Ok(held);
            }
            ffi::PyType_Modified(ty);
            let _ = _PyType_Lookup(ty, name);
            held.plan().version.set(version_of(ty));
        } else {
            ffi::PyErr_Clear();
        }
    }
    Ok(held)
}

/// Whether every key of the dicts of `ty` and its bases (its MRO) is an
/// exact str, so that looking a str up in them runs no Python code.
///
/// # Safety
/// `ty` is a live type; GIL held.
unsafe fn str_keys_only(ty: *mut ffi::PyTypeObject) -> bool {
    // SAFETY: the MRO tuple is held while read; `PyDict_Next` hands out
    // borrowed keys and runs no Python code; types are compared only.
    unsafe {
        let mro = (*ty).tp_mro;
        if mro.is_null() || ffi::PyTuple_Check(mro) == 0 {
            return false;
        }
        let _mro = Hold::new(mro);
        for i in 0..ffi::PyTuple_GET_SIZE(mro) {
            let base = ffi::PyTuple_GET_ITEM(mro, i);
            if ffi::PyType_Check(base) == 0 {
                return false;
            }
            let dict = (*(base as *mut ffi::PyTypeObject)).tp_dict;
            if dict.is_null() {
                continue;
            }
            let (mut pos, mut key, mut value) = (0, std::ptr::null_mut(), std::ptr::null_mut());
            while ffi::PyDict_Next(dict, &mut pos, &mut key, &mut value) != 0 {
                if ffi::PyUnicode_CheckExact(key) == 0 {
                    return false;
                }
            }
        }
        true
    }
}

/// A field's default as `omit_defaults` sees it.
pub enum Omit {
    /// No default: always written.
    Never,
    /// `x: T = value`: left out when the value is this one or equal to it.
    Value(Py<PyAny>),
    /// `field(default_factory=list)` (or dict, set, tuple): left out when
    /// empty and of that type. Other factories are never called to compare.
    Empty(*mut ffi::PyTypeObject),
}

impl Omit {
    fn empty_of(factory: &Bound<'_, PyAny>) -> Omit {
        // The addresses of built-in types, only compared.
        let builtins = [
            std::ptr::addr_of_mut!(ffi::PyList_Type),
            std::ptr::addr_of_mut!(ffi::PyDict_Type),
            std::ptr::addr_of_mut!(ffi::PySet_Type),
            std::ptr::addr_of_mut!(ffi::PyTuple_Type),
        ];
        match builtins.into_iter().find(|&t| factory.as_ptr() == t as *mut PyObject) {
            Some(t) => Omit::Empty(t),
            None => Omit::Never,
        }
    }
}

/// How each field is read (see `Read`), and the shared keys `Managed`
/// reads index. `direct`: the interpreter is CPython 3.11, whose instance
/// layout `dictiter::managed` reads.
///
/// # Safety
/// `ty` is a live class; GIL held.
unsafe fn reads_of(ty: *mut ffi::PyTypeObject, names: &[(Py<PyString>, String)], direct: bool) -> (Vec<Read>, *const std::ffi::c_void) {
    // SAFETY: reads fields of a live type; lookups return borrowed
    // descriptors, only inspected.
    unsafe {
        let generic = (*ty).tp_getattro.map(|f| f as usize) == Some(ffi::PyObject_GenericGetAttr as *const () as usize);
        let flags = ffi::PyType_GetFlags(ty);
        let managed = direct && flags & ffi::Py_TPFLAGS_MANAGED_DICT != 0 && flags & ffi::Py_TPFLAGS_HEAPTYPE != 0;
        let keys = if managed { (*(ty as *mut ffi::PyHeapTypeObject)).ht_cached_keys as *const std::ffi::c_void } else { std::ptr::null() };
        let dictoffset = (*ty).tp_dictoffset;
        let reads: Vec<Read> = names
            .iter()
            .map(|(name, _)| {
                // A name that is not an exact str (a subclass may hash and
                // compare as another name) is left to getattr, as is every
                // field of a class with its own attribute lookup.
                if !generic || ffi::PyUnicode_CheckExact(name.as_ptr()) == 0 {
                    return Read::GetAttr;
                }
                let d = _PyType_Lookup(ty, name.as_ptr());
                if !d.is_null() {
                    if ffi::Py_TYPE(d) == std::ptr::addr_of_mut!(ffi::PyMemberDescr_Type) {
                        let descr = d as *mut ffi::PyMemberDescrObject;
                        let m = (*descr).d_member;
                        // T_OBJECT_EX: an object pointer, NULL when unset;
                        // only a slot of this class or a base (a slot
                        // descriptor of another class, assigned here, is
                        // refused by getattr: its offset is not ours).
                        let owner = (*descr).d_common.d_type;
                        let ours = !owner.is_null() && ffi::PyType_IsSubtype(ty, owner) != 0;
                        return if (*m).type_code == 16 && ours { Read::Slot((*m).offset) } else { Read::GetAttr };
                    }
                    if (*ffi::Py_TYPE(d)).tp_descr_set.is_some() {
                        // A data descriptor (a property...) comes first.
                        return Read::GetAttr;
                    }
                }
                if managed {
                    Read::Managed(super::dictiter::split_index(keys, name.as_ptr()))
                } else if dictoffset > 0 && direct {
                    Read::Dict(dictoffset)
                } else {
                    Read::GetAttr
                }
            })
            .collect();
        (reads, keys)
    }
}

impl Plan {
    /// Field `i`'s value on `obj` (a new reference) in the common case: an
    /// instance of the planned class, unchanged, whose attributes are still
    /// its inline values array, or the split table of a dict made from it
    /// (`vars(obj)`, `obj.__dict__`: orjson's way to read a dataclass makes
    /// one; the same checks as `read_any`, made per field since Python code
    /// may have run since the last one). Null otherwise, and for a value not
    /// set: then `read_any`. Runs no Python code.
    ///
    /// # Safety
    /// `obj` is a live instance of a class (held by the caller); GIL held.
    #[inline(always)]
    pub unsafe fn read_in_place(&self, obj: *mut PyObject, i: usize) -> *mut PyObject {
        // SAFETY: as in `read_any`, whose `Read::Managed` arm this is when
        // the instance has its values array or a dict still split over the
        // shared keys: the class is the planned one at the planned version,
        // so the instance has the managed layout and the index is within
        // the shared keys' entries; the dict is only read (two fields and
        // a value), nothing runs that could free it.
        unsafe {
            let ty = ffi::Py_TYPE(obj);
            let version = self.version.get();
            if let Some(Read::Managed(Some(ix))) = self.reads.get(i).copied() {
                if ty as usize == self.class && version != 0 && version_of(ty) == version {
                    let (mut values, dict) = super::dictiter::managed(obj);
                    let keys = (*(ty as *mut ffi::PyHeapTypeObject)).ht_cached_keys as *const std::ffi::c_void;
                    if keys == self.keys && ix < super::dictiter::split_len(keys) {
                        if values.is_null() && !dict.is_null() {
                            values = super::dictiter::split_values(dict, keys);
                        }
                        if !values.is_null() {
                            let v = *values.add(ix);
                            ffi::Py_XINCREF(v);
                            return v;
                        }
                    }
                }
            }
            std::ptr::null_mut()
        }
    }

    /// Field `i`'s value on `obj` (a new reference) for every kind of field
    /// and instance where it can be read in place; null when `getattr` must
    /// be asked (also for a value not set). A lookup in an instance dict may
    /// run Python code (a colliding key's `__eq__`): check the stack first.
    /// `Err` when that code raised (the exception is set): it is the
    /// caller's to raise, as getattr would, not to retry.
    ///
    /// # Safety
    /// As `read_in_place`.
    #[inline(never)]
    pub unsafe fn read_any(&self, obj: *mut PyObject, i: usize) -> Result<*mut PyObject, ()> {
        // SAFETY: the plan is trusted only for its class while the class has
        // the version it had when planned (rechecked here, since Python code
        // may have run since the last field); offsets and indexes are then
        // those of this class's instances (indexes below the shared keys'
        // length, within every instance's values array, which is sized for
        // all the keys the shared keys can hold). Values read in place are
        // taken (a new reference) before anything else runs. A dict lookup
        // with a str key may call `__eq__` of a non-str key with the same
        // hash, which may replace the instance's dict: the dict is held
        // while it is looked up in, and the value taken before it is let go.
        unsafe {
            let ty = ffi::Py_TYPE(obj);
            let version = self.version.get();
            if ty as usize != self.class || version == 0 || version_of(ty) != version {
                return Ok(std::ptr::null_mut());
            }
            let taken = |v: *mut PyObject| {
                ffi::Py_XINCREF(v);
                v
            };
            let dict = match self.reads[i] {
                Read::Slot(off) => return Ok(taken(*((obj as *mut u8).offset(off) as *mut *mut PyObject))),
                Read::Managed(index) => {
                    let (values, dict) = super::dictiter::managed(obj);
                    let keys = (*(ty as *mut ffi::PyHeapTypeObject)).ht_cached_keys as *const std::ffi::c_void;
                    if !values.is_null() {
                        return Ok(match index {
                            Some(ix) if keys == self.keys && ix < super::dictiter::split_len(keys) => taken(*values.add(ix)),
                            _ => std::ptr::null_mut(),
                        });
                    }
                    // A dict made from the inline values (`vars(obj)`)
                    // keeps them: read in place while it still uses the
                    // shared keys (`split_values`); else looked up.
                    if !dict.is_null() && keys == self.keys {
                        if let Some(ix) = index.filter(|&ix| ix < super::dictiter::split_len(keys)) {
                            let values = super::dictiter::split_values(dict, keys);
                            if !values.is_null() {
                                return Ok(taken(*values.add(ix)));
                            }
                        }
                    }
                    dict
                }
                Read::Dict(off) => *((obj as *mut u8).offset(off) as *mut *mut PyObject),
                Read::GetAttr => return Ok(std::ptr::null_mut()),
            };
            if dict.is_null() {
                return Ok(std::ptr::null_mut());
            }
            let _dict = Hold::new(dict);
            let v = ffi::PyDict_GetItemWithError(dict, self.names[i].0.as_ptr());
            if v.is_null() && !ffi::PyErr_Occurred().is_null() {
                // A key's `__eq__` raised: getattr would raise it too (and
                // run the same lookup again).
                return Err(());
            }
            Ok(taken(v))
        }
    }
}

/// The interned attribute name; `None` (no exception set) when it cannot
/// be made, out of memory: `PyString::intern` would panic there, and the
/// first `dumps` of an object that is not an exact built-in would abort
/// the process instead of raising `MemoryError`.
fn attribute(py: Python<'_>) -> Option<*mut PyObject> {
    static NAME: pyo3::sync::PyOnceLock<Py<PyString>> = pyo3::sync::PyOnceLock::new();
    NAME.get_or_try_init(py, || Ok::<_, PyErr>(crate::fallible::interned(py, ATTRIBUTE)?.unbind())).ok().map(|n| n.as_ptr())
}

/// Plans whose holders died, not yet freed (see `PlanHolder::drop`).
struct Graveyard(std::cell::UnsafeCell<Vec<Plan>>);

// SAFETY: only touched with the GIL held (holders' `Drop` and `make`),
// and the extension is not built for free-threaded CPython (lib.rs).
unsafe impl Sync for Graveyard {}

static GRAVEYARD: Graveyard = Graveyard(std::cell::UnsafeCell::new(Vec::new()));

/// Frees the plans in the graveyard, if it holds any: at the start of each
/// `dumps` call (where Python code may run and nothing is borrowed), so
/// that the defaults and names of classes freed since the last call do not
/// wait for the next class planned. A load and a branch when it is empty.
#[inline(always)]
pub fn bury_any() {
    // SAFETY: GIL held (called from `dumps`); only the length is read.
    if !unsafe { &*GRAVEYARD.0.get() }.is_empty() {
        bury();
    }
}

/// Frees the plans in the graveyard (which may run Python code: call only
/// where that is allowed). Plans that die meanwhile wait for the next call.
#[cold]
#[inline(never)]
fn bury() {
    // SAFETY: GIL held (`make` runs inside a Python call); the list is
    // taken out before any plan is dropped, so code run by a drop finds an
    // empty graveyard to add to.
    let plans = unsafe { std::mem::take(&mut *GRAVEYARD.0.get()) };
    drop(plans);
}
