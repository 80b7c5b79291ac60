//! Records as JSON objects: which members a dataclass, `TypedDict` or
//! `NamedTuple` has, under which JSON names, with which defaults, and the
//! class's tag. One place that both typed decode (`decode/`) and `dumps`
//! read, so that what one writes the other reads back.
//!
//! The rules (documented in the README, section "Typed decode"):
//!
//! * A dataclass field's JSON name is `field.metadata["json"]` when given
//!   (`dataclasses.field(metadata={"json": "@type"})`), else its name
//!   rewritten by the class's rename rule, else its name.
//! * The rename rule is the class attribute `__jetjson_rename__`: "camel"
//!   (`user_id` -> `userId`), "pascal" (`UserId`) or "kebab" (`user-id`).
//!   `jetjson.config(rename=...)` sets it; subclasses inherit it.
//! * A field whose name starts with `_` is not a JSON member unless it has
//!   an explicit JSON name (`in_json` is false): decode leaves it to its
//!   default, dumps leaves it out (as orjson does).
//! * A class is tagged when it or a base sets `__jetjson_tag__` (`True`: the
//!   class's own `__name__`, inherited as such; a str or int: that value,
//!   for that class only) and the tag goes in the member named
//!   `__jetjson_tag_field__` (default "type"), written first. This is how
//!   msgspec's `Struct(tag=..., tag_field=...)` declares tags.
//! * `TypedDict` keys are their own JSON names (no rename: the dict's keys
//!   are the JSON names). `NamedTuple`s are JSON arrays, fields by position.
//!
//! Everything here runs Python code (attribute reads, `dataclasses.fields`)
//! and is meant for planning a class once, never per instance.

use crate::fallible::{name, new_dict, new_str};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple, PyType};

/// What kind of record a class is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Dataclass,
    TypedDict,
    NamedTuple,
}

/// A field's default.
pub(crate) enum Default {
    /// None: the member must be present (for `TypedDict`, a required key).
    Required,
    /// A value shared by every instance (`x: int = 0`).
    Value(Py<PyAny>),
    /// A callable called for each instance (`field(default_factory=list)`).
    Factory(Py<PyAny>),
    /// No default, but not required either: a `TypedDict`'s `NotRequired`
    /// key, or a dataclass field with `init=False` and no default (the
    /// attribute is left unset, as the dataclass's `__init__` leaves it).
    Absent,
}

pub(crate) struct Field {
    /// The attribute, key or field name.
    pub name: Py<PyString>,
    /// The JSON member name, as a str and as text (the str is what `dumps`
    /// writes; decode matches the text's bytes).
    #[allow(dead_code)] // read by dumps (issue 22)
    pub json: Py<PyString>,
    pub json_text: String,
    /// Whether the field is a JSON member at all (see the module doc).
    pub in_json: bool,
    pub default: Default,
    /// The annotation as the class has it (possibly a string, unresolved).
    pub annotation: Py<PyAny>,
    /// A dataclass field passed to `__init__` (`init=True`).
    pub init: bool,
}

/// A tag: the member `field` holds `value` (a str or an int).
pub(crate) struct Tag {
    #[allow(dead_code)] // read by dumps (issue 22)
    pub field: Py<PyString>,
    pub field_text: String,
    pub value: Py<PyAny>,
}

pub(crate) struct Record {
    pub kind: Kind,
    /// Declaration order (for dataclasses, `dataclasses.fields` order,
    /// bases first).
    pub fields: Vec<Field>,
    pub tag: Option<Tag>,
}

/// The class-wide rename rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rename {
    Camel,
    Pascal,
    Kebab,
}

impl Rename {
    fn apply(self, name: &str) -> String {
        match self {
            Rename::Kebab => name.replace('_', "-"),
            Rename::Camel | Rename::Pascal => {
                let mut out = String::with_capacity(name.len());
                for (i, part) in name.split('_').filter(|p| !p.is_empty()).enumerate() {
                    let mut chars = part.chars();
                    if let Some(first) = chars.next() {
                        if i == 0 && self == Rename::Camel {
                            out.push(first);
                        } else {
                            out.extend(first.to_uppercase());
                        }
                        out.push_str(chars.as_str());
                    }
                }
                out
            }
        }
    }
}

/// The record `class` is, if it is one: the function both typed decode and
/// `dumps` call to learn a class's JSON members. `None` for other classes.
///
/// Runs Python code (attribute reads through the class, `dataclasses.fields`);
/// errors for a class whose declaration cannot be honoured (an unknown
/// rename rule, two fields with one JSON name, a tag member that is also a
/// field).
pub(crate) fn record(class: &Bound<'_, PyType>) -> PyResult<Option<Record>> {
    let py = class.py();
    if class.hasattr(name!(py, "__dataclass_fields__")?)? {
        return dataclass(class).map(Some);
    }
    if is_typed_dict(class)? {
        return typed_dict(class).map(Some);
    }
    if is_named_tuple(class)? {
        return named_tuple(class).map(Some);
    }
    Ok(None)
}

fn is_typed_dict(class: &Bound<'_, PyType>) -> PyResult<bool> {
    let py = class.py();
    Ok(class.is_subclass_of::<PyDict>()? && class.hasattr(name!(py, "__required_keys__")?)? && class.hasattr(name!(py, "__total__")?)?)
}

fn is_named_tuple(class: &Bound<'_, PyType>) -> PyResult<bool> {
    let py = class.py();
    Ok(class.is_subclass_of::<PyTuple>()? && class.hasattr(name!(py, "_fields")?)?)
}

/// The class's rename rule (`__jetjson_rename__`), if any.
pub(crate) fn rename_of(class: &Bound<'_, PyType>) -> PyResult<Option<Rename>> {
    let py = class.py();
    let Some(value) = optional_attr(class, name!(py, "__jetjson_rename__")?)? else { return Ok(None) };
    if value.is_none() {
        return Ok(None);
    }
    let Ok(text) = value.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!("{}.__jetjson_rename__ must be a str, not {}", class_name(class), type_name(&value))));
    };
    match text.to_str()? {
        "camel" => Ok(Some(Rename::Camel)),
        "pascal" => Ok(Some(Rename::Pascal)),
        "kebab" => Ok(Some(Rename::Kebab)),
        other => Err(PyValueError::new_err(format!(
            "{}.__jetjson_rename__ must be \"camel\", \"pascal\" or \"kebab\", not {other:?}",
            class_name(class)
        ))),
    }
}

/// The class's tag, if it has one (see the module doc).
fn tag_of(class: &Bound<'_, PyType>) -> PyResult<Option<Tag>> {
    let py = class.py();
    let name = name!(py, "__jetjson_tag__")?;
    // The class's own declaration first, then an inherited `True`.
    let own = class.getattr(name!(py, "__dict__")?)?.get_item(name).ok();
    let value = match own {
        Some(v) => v,
        None => match optional_attr(class, name)? {
            Some(v) if v.is(PyBool::new(py, true).as_any()) => v,
            _ => return Ok(None),
        },
    };
    let value = if value.is_none() || value.is(PyBool::new(py, false).as_any()) {
        return Ok(None);
    } else if value.is(PyBool::new(py, true).as_any()) {
        class.getattr(name!(py, "__name__")?)?
    } else if value.is_exact_instance_of::<PyString>() || (value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>()) {
        value
    } else {
        return Err(PyTypeError::new_err(format!(
            "{}.__jetjson_tag__ must be True, a str or an int, not {}",
            class_name(class),
            type_name(&value)
        )));
    };
    let field = match optional_attr(class, name!(py, "__jetjson_tag_field__")?)? {
        Some(f) if !f.is_none() => f
            .cast_into::<PyString>()
            .map_err(|_| PyTypeError::new_err(format!("{}.__jetjson_tag_field__ must be a str", class_name(class))))?,
        _ => name!(py, "type")?.clone(),
    };
    let field_text = field.to_str()?.to_owned();
    Ok(Some(Tag { field: field.unbind(), field_text, value: value.unbind() }))
}

fn dataclass(class: &Bound<'_, PyType>) -> PyResult<Record> {
    let py = class.py();
    let dataclasses = py.import(name!(py, "dataclasses")?)?;
    let missing = dataclasses.getattr(name!(py, "MISSING")?)?;
    let rename = rename_of(class)?;
    let mut fields = Vec::new();
    for f in dataclasses.getattr(name!(py, "fields")?)?.call1((class,))?.try_iter()? {
        let f = f?;
        let name = f.getattr(name!(py, "name")?)?.cast_into::<PyString>()?;
        let text = name.to_str()?.to_owned();
        let explicit = f.getattr(name!(py, "metadata")?)?.get_item(name!(py, "json")?).ok();
        let (json_text, in_json) = match explicit {
            Some(j) => {
                let j = j
                    .cast_into::<PyString>()
                    .map_err(|_| PyTypeError::new_err(format!("{}.{text}: metadata[\"json\"] must be a str", class_name(class))))?;
                (j.to_str()?.to_owned(), true)
            }
            None => (rename.map_or_else(|| text.clone(), |r| r.apply(&text)), !text.starts_with('_')),
        };
        let default = f.getattr(name!(py, "default")?)?;
        let factory = f.getattr(name!(py, "default_factory")?)?;
        let init = f.getattr(name!(py, "init")?)?.is_truthy()?;
        let default = if !default.is(&missing) {
            Default::Value(default.unbind())
        } else if !factory.is(&missing) {
            Default::Factory(factory.unbind())
        } else if !init {
            Default::Absent
        } else {
            Default::Required
        };
        let annotation = f.getattr(name!(py, "type")?)?.unbind();
        let json = if json_text == text { name.clone().unbind() } else { new_str(py, &json_text)?.unbind() };
        fields.push(Field { name: name.unbind(), json, json_text, in_json, default, annotation, init });
    }
    let tag = tag_of(class)?;
    check_names(class, &fields, tag.as_ref())?;
    Ok(Record { kind: Kind::Dataclass, fields, tag })
}

fn typed_dict(class: &Bound<'_, PyType>) -> PyResult<Record> {
    let py = class.py();
    let required = class.getattr(name!(py, "__required_keys__")?)?;
    let annotations = typing_hints(class, true)?;
    let mut fields = Vec::new();
    for item in crate::fallible::dict_items(&annotations)? {
        let (key, annotation) = item.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()?;
        let key = key.cast_into::<PyString>()?;
        let text = key.to_str()?.to_owned();
        let default = if required.contains(&key)? { Default::Required } else { Default::Absent };
        fields.push(Field {
            name: key.clone().unbind(),
            json: key.unbind(),
            json_text: text,
            in_json: true,
            default,
            annotation: annotation.unbind(),
            init: true,
        });
    }
    check_names(class, &fields, None)?;
    Ok(Record { kind: Kind::TypedDict, fields, tag: None })
}

fn named_tuple(class: &Bound<'_, PyType>) -> PyResult<Record> {
    let py = class.py();
    let names = class.getattr(name!(py, "_fields")?)?;
    let defaults = class.getattr(name!(py, "_field_defaults")?)?;
    let annotations = optional_attr(class, name!(py, "__annotations__")?)?;
    let mut fields = Vec::new();
    for name in names.try_iter()? {
        let name = name?.cast_into::<PyString>()?;
        let text = name.to_str()?.to_owned();
        let default = match defaults.get_item(&name) {
            Ok(v) => Default::Value(v.unbind()),
            Err(_) => Default::Required,
        };
        let annotation = match annotations.as_ref().and_then(|a| a.get_item(&name).ok()) {
            Some(a) => a.unbind(),
            None => py.import(name!(py, "typing")?)?.getattr(name!(py, "Any")?)?.unbind(),
        };
        fields.push(Field {
            name: name.clone().unbind(),
            json: name.unbind(),
            json_text: text,
            in_json: true,
            default,
            annotation,
            init: true,
        });
    }
    Ok(Record { kind: Kind::NamedTuple, fields, tag: None })
}

/// `typing.get_type_hints(class, include_extras=extras)`, with the class's
/// own name resolvable (a class defined in a function that refers to
/// itself: `children: list["Node"]`).
pub(crate) fn typing_hints<'py>(class: &Bound<'py, PyType>, extras: bool) -> PyResult<Bound<'py, PyDict>> {
    let py = class.py();
    let kwargs = new_dict(py)?;
    kwargs.set_item(name!(py, "include_extras")?, extras)?;
    let localns = new_dict(py)?;
    localns.set_item(class.getattr(name!(py, "__name__")?)?, class)?;
    kwargs.set_item(name!(py, "localns")?, localns)?;
    let hints = py.import(name!(py, "typing")?)?.getattr(name!(py, "get_type_hints")?)?.call((class,), Some(&kwargs))?;
    Ok(hints.cast_into::<PyDict>()?)
}

/// Two JSON members with one name, or a field named like the tag member,
/// cannot be read back unambiguously: refused when the class is planned.
fn check_names(class: &Bound<'_, PyType>, fields: &[Field], tag: Option<&Tag>) -> PyResult<()> {
    let mut seen = std::collections::HashSet::new();
    if let Some(tag) = tag {
        seen.insert(tag.field_text.as_str());
    }
    for f in fields.iter().filter(|f| f.in_json) {
        if !seen.insert(f.json_text.as_str()) {
            return Err(PyTypeError::new_err(format!(
                "{}: two members would be named {:?} in JSON{}",
                class_name(class),
                f.json_text,
                if tag.is_some_and(|t| t.field_text == f.json_text) { " (one is the tag member)" } else { "" }
            )));
        }
    }
    Ok(())
}

/// `getattr(obj, name)` when it exists.
pub(crate) fn optional_attr<'py>(obj: &Bound<'py, PyType>, name: &Bound<'py, PyString>) -> PyResult<Option<Bound<'py, PyAny>>> {
    match obj.getattr(name) {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyAttributeError>(obj.py()) => Ok(None),
        Err(e) => Err(e),
    }
}

pub(crate) fn class_name(class: &Bound<'_, PyType>) -> String {
    class.name().map(|n| n.to_string()).unwrap_or_else(|_| "?".to_owned())
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".to_owned())
}
