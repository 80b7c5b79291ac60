//! Field names of dataclasses, read once per class.
//!
//! `dataclasses.fields(cls)` (which leaves out ClassVar and InitVar
//! pseudo-fields) is a Python-level call; doing it per instance would cost
//! more than writing the instance. Each class's names are kept with their
//! UTF-8 text and their orders under both sorted key orders.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use jetjson::{KeyOrder, Sink, Writer};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyType};

pub struct Fields {
    /// Keeps the class alive, so its address cannot be reused as a key.
    _class: Py<PyType>,
    pub names: Vec<(Py<PyString>, String)>,
    utf8: Vec<usize>,
    utf16: Vec<usize>,
}

impl Fields {
    /// Field indexes in the order the style asks for.
    pub fn order(&self, order: KeyOrder) -> Box<dyn Iterator<Item = usize> + '_> {
        match order {
            KeyOrder::Insertion => Box::new(0..self.names.len()),
            KeyOrder::Utf8 => Box::new(self.utf8.iter().copied()),
            KeyOrder::Utf16 => Box::new(self.utf16.iter().copied()),
        }
    }
}

use super::shapes::{Shape, Tag};

/// Dataclass types met recently (kept between calls in the walker's
/// scratch), each with its field names encoded for the styles used: an
/// instance of one is written without `other`'s chain of type checks, the
/// global cache's lock, or an escape check per field name.
#[derive(Default)]
pub struct Records {
    entries: Vec<Record>,
    next: usize,
}

struct Record {
    /// The type object's address (kept alive by `fields`).
    ty: usize,
    fields: Arc<Fields>,
    /// Encoded names per style (tag), in the style's field order.
    shapes: Vec<Rc<Shape>>,
}

/// Types kept at most; past that, entries are replaced in turn.
const MAX_RECORDS: usize = 32;

impl Records {
    /// The entry of dataclass type `ty`, if kept.
    #[inline]
    pub fn find(&self, ty: *mut ffi::PyTypeObject) -> Option<usize> {
        self.entries.iter().position(|r| r.ty == ty as usize)
    }

    /// Keeps `fields` for `ty`; returns its entry.
    pub fn add(&mut self, ty: *mut ffi::PyTypeObject, fields: Arc<Fields>) -> usize {
        let record = Record { ty: ty as usize, fields, shapes: Vec::new() };
        if self.entries.len() < MAX_RECORDS {
            self.entries.push(record);
            return self.entries.len() - 1;
        }
        let at = self.next % MAX_RECORDS;
        self.next += 1;
        self.entries[at] = record;
        at
    }

    /// The fields of entry `i` and their names encoded as `w` writes them,
    /// in `tag.by` order (made on first use).
    pub fn plan<S: Sink>(&mut self, i: usize, tag: Tag, w: &Writer<S>) -> Option<(Arc<Fields>, Rc<Shape>)> {
        let record = &mut self.entries[i];
        if let Some(shape) = record.shapes.iter().find(|s| s.tag() == tag) {
            return Some((Arc::clone(&record.fields), Rc::clone(shape)));
        }
        let fields = &record.fields;
        let keys: Vec<*mut ffi::PyObject> = fields.names.iter().map(|(name, _)| name.as_ptr()).collect();
        let order: Vec<u32> = fields.order(tag.by).map(|i| i as u32).collect();
        // SAFETY: the name objects are live (held by `fields`); GIL held
        // (the walker runs inside a Python call).
        let shape = unsafe { Shape::new(tag, &keys, &order, w, |i| Some(fields.names[i as usize].1.as_str())) };
        let shape = Rc::new(shape?);
        record.shapes.push(Rc::clone(&shape));
        Some((Arc::clone(&record.fields), shape))
    }
}

static CACHE: PyOnceLock<Mutex<HashMap<usize, Arc<Fields>>>> = PyOnceLock::new();

/// The fields of `class` (a dataclass), from the cache or computed now.
pub fn fields_of(class: &Bound<'_, PyType>) -> PyResult<Arc<Fields>> {
    let py = class.py();
    let cache = CACHE.get_or_init(py, || Mutex::new(HashMap::new()));
    let key = class.as_ptr() as usize;
    if let Some(f) = cache.lock().map_err(|_| poisoned())?.get(&key) {
        return Ok(f.clone());
    }
    // Computed outside the lock: it runs Python code, which may switch threads.
    let all = py.import("dataclasses")?.getattr("fields")?.call1((class,))?;
    let mut names = Vec::new();
    for field in all.try_iter()? {
        let name = field?.getattr("name")?.cast_into::<PyString>()?;
        let text = name.to_str()?.to_owned();
        names.push((name.unbind(), text));
    }
    let mut utf8: Vec<usize> = (0..names.len()).collect();
    utf8.sort_by(|&a, &b| names[a].1.as_bytes().cmp(names[b].1.as_bytes()));
    let mut utf16: Vec<usize> = (0..names.len()).collect();
    utf16.sort_by(|&a, &b| jetjson::compare_utf16(names[a].1.as_bytes(), names[b].1.as_bytes()));
    let fields = Arc::new(Fields { _class: class.clone().unbind(), names, utf8, utf16 });
    cache.lock().map_err(|_| poisoned())?.insert(key, fields.clone());
    Ok(fields)
}

fn poisoned() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err("jetjson dataclass cache lock poisoned")
}
