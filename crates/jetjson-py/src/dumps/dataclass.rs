//! Field names of dataclasses, read once per class.
//!
//! `dataclasses.fields(cls)` (which leaves out ClassVar and InitVar
//! pseudo-fields) is a Python-level call; doing it per instance would cost
//! more than writing the instance. Each class's names are kept with their
//! UTF-8 text and their orders under both sorted key orders.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use jetjson::KeyOrder;
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
