//! A compiled type: what `compile.rs` makes of a Python type once, and what
//! the builder (`builder.rs`) follows for every value.
//!
//! The plan owns a strong reference to every Python object it names
//! (classes, field names, defaults, factories, enum members, literal
//! values), so an address in a plan always means the same live object,
//! whatever Python code run during a decode (`__post_init__`, a
//! `default_factory`) does to the classes themselves.

use std::sync::atomic::{AtomicU32, AtomicU8};

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};

use super::names::Names;
use crate::schema::Kind;

/// What a JSON value must be, and what it becomes.
pub(crate) enum Node {
    /// Anything, built as `loads` builds it.
    Any,
    /// Only `null` (the type `None`).
    Null,
    Bool,
    Int,
    /// A number (integers accepted), as a float.
    Float,
    Str,
    /// A base64 string, as bytes.
    Bytes,
    DateTime,
    Date,
    Time,
    /// A UUID string (with or without dashes), as `uuid.UUID`.
    Uuid,
    /// A number (exactly) or a numeric string, as `decimal.Decimal`.
    Decimal,
    /// The value's JSON text, as `jetjson.Raw`.
    Raw,
    /// One of fixed values (`Literal[...]`, an `Enum`'s members by value).
    Choice(Box<Choices>),
    List(Box<Node>),
    Set(Box<Node>),
    FrozenSet(Box<Node>),
    /// `tuple[T, ...]`.
    TupleOf(Box<Node>),
    /// `tuple[A, B]`: exactly these items.
    Tuple(Box<[Node]>),
    Dict(Box<DictNode>),
    /// A dataclass, `TypedDict` or `NamedTuple` (index into `Plan::records`).
    Record(u32),
    /// `T | None`.
    Optional(Box<Node>),
    /// Members of distinct JSON kinds.
    Union(Box<UnionNode>),
    /// Dataclasses told apart by a tag member.
    Tagged(Box<TaggedNode>),
    /// A value with constraints (`Annotated[int, Meta(ge=0)]`).
    Checked(Box<(Node, Rules)>),
    /// A member that is not read (unknown, or a repeat kept out): never
    /// built. Only the builder uses it.
    Skip,
    /// An array item past the end of a fixed-length tuple (an error).
    /// Only the builder uses it.
    Extra,
}

/// Fixed values by their JSON form. Values are the objects to return.
#[derive(Default)]
pub(crate) struct Choices {
    /// Type name for messages ("Literal", "Color").
    pub what: String,
    pub strs: Vec<(Box<[u8]>, Py<PyAny>)>,
    pub ints: Vec<(i64, Py<PyAny>)>,
    pub bools: [Option<Py<PyAny>>; 2],
    pub null: Option<Py<PyAny>>,
    /// An `enum.Flag` class with int values: an integer that is no member's
    /// value is handed to it (`F(3)` is `F.A|F.B`), as `dumps` writes such
    /// a combination and msgspec reads it back.
    pub flag: Option<Py<PyAny>>,
}

impl Choices {
    pub(crate) fn clone_ref(&self, py: Python<'_>) -> Choices {
        Choices {
            what: self.what.clone(),
            strs: self.strs.iter().map(|(s, v)| (s.clone(), v.clone_ref(py))).collect(),
            ints: self.ints.iter().map(|(n, v)| (*n, v.clone_ref(py))).collect(),
            bools: [self.bools[0].as_ref().map(|v| v.clone_ref(py)), self.bools[1].as_ref().map(|v| v.clone_ref(py))],
            null: self.null.as_ref().map(|v| v.clone_ref(py)),
            flag: self.flag.as_ref().map(|v| v.clone_ref(py)),
        }
    }
}

/// What a dict's keys are read as.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyKind {
    /// `str` (or `Any`).
    Str,
    /// `int`, from the key's decimal text.
    Int,
}

pub(crate) struct DictNode {
    pub key: KeyKind,
    pub value: Node,
}

/// One member per JSON kind, at most.
#[derive(Default)]
pub(crate) struct UnionNode {
    pub null: bool,
    pub boolean: Option<Node>,
    /// Integer literals (when `float` is also a member, others go there).
    pub int: Option<Node>,
    /// Numbers that are not integers, and integers when `int` is absent.
    pub float: Option<Node>,
    pub string: Option<Node>,
    pub array: Option<Node>,
    pub object: Option<Node>,
    /// How the union is named in messages.
    pub what: String,
}

pub(crate) struct TaggedNode {
    /// The tag member's name.
    pub field: Box<[u8]>,
    pub field_text: String,
    /// Tag values (str or int) and the record each selects.
    pub strs: Vec<(Box<[u8]>, u32)>,
    pub ints: Vec<(i64, u32)>,
    pub what: String,
    /// While the plan is compiled: the records of a union of which one was
    /// still being compiled when the union was met (a recursive type, an
    /// expression tree: `l: Union[Num, "Add"]` inside `Add`), whose tags
    /// are read once every record is compiled (`compile::resolve_tags`);
    /// empty in a finished plan.
    pub pending: Box<[u32]>,
}

/// Constraints from `Annotated` metadata.
#[derive(Default)]
pub(crate) struct Rules {
    pub ge: Option<Py<PyAny>>,
    pub gt: Option<Py<PyAny>>,
    pub le: Option<Py<PyAny>>,
    pub lt: Option<Py<PyAny>>,
    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    /// A compiled `re.Pattern`, matched with `.search`.
    pub pattern: Option<Py<PyAny>>,
}

/// How a field's value reaches a new instance.
#[derive(Clone, Copy)]
pub(crate) enum Store {
    /// `PyObject_GenericSetAttr` (the instance dict, or a descriptor).
    Attr,
    /// A `__slots__` member: written at this offset of the new object.
    Slot(isize),
}

pub(crate) enum Default {
    Required,
    Value(Py<PyAny>),
    Factory(Py<PyAny>),
    /// Left unset.
    Absent,
}

pub(crate) struct Field {
    /// Attribute (dataclass), key (TypedDict) or field (NamedTuple) name.
    pub name: Py<PyString>,
    /// The JSON member name (paths, messages).
    pub json: String,
    pub node: Node,
    pub default: Default,
    pub store: Store,
    /// Passed to a custom `__init__` (dataclass `init=True`).
    pub init: bool,
}

/// How a dataclass instance is made.
pub(crate) enum Build {
    /// `object.__new__(cls)`, then every field stored, then
    /// `__post_init__` if the class has one.
    New,
    /// The class has its own `__init__` (or `__new__`): it is called with
    /// the fields it takes as keyword arguments.
    Call,
}

pub(crate) struct Record {
    pub kind: Kind,
    pub class: Py<PyType>,
    /// JSON members first (`names` indexes them), then fields that are
    /// not JSON members (set from their defaults).
    pub fields: Vec<Field>,
    /// How many of `fields` are JSON members.
    pub members: usize,
    pub names: Names,
    pub build: Build,
    /// `__post_init__`'s name when instances get a call of it (looked up
    /// on each new instance, as the generated `__init__` does).
    pub post_init: Option<Py<PyString>>,
    /// The defaults of the `InitVar`s `__post_init__` takes.
    pub post_args: Vec<Py<PyAny>>,
    /// CPython 3.11: fields stored straight into the inline values.
    pub inline: Option<Inline>,
    /// A tag member the record accepts (and checks) in JSON.
    pub tag: Option<(Box<[u8]>, TagValue)>,
    /// What the tag member's value must be (a one-value `Choice`).
    pub tag_node: Node,
}

/// Where instances of a plain (non-slots) dataclass keep each field, on
/// CPython 3.11: the index of its value in the instance's inline values
/// (the array the interpreter's own `STORE_ATTR_INSTANCE_VALUE` writes),
/// learned by watching CPython store the fields of a probe instance
/// (`compile::learn_inline`), and trusted only while the class keeps the
/// version tag it had then, as the interpreter trusts its own caches.
/// Learned again when the tag changes (another library, or `dumps`, may
/// set an attribute on the class). Atomics only so that the plan is `Sync`:
/// they are read and written with the GIL held.
pub(crate) struct Inline {
    /// The tag the indexes were learned under (0: none yet).
    pub version: AtomicU32,
    /// A tag under which learning failed (not tried again).
    pub refused: AtomicU32,
    /// Per field of the record, in `fields` order.
    pub index: Box<[AtomicU8]>,
}

pub(crate) enum TagValue {
    Str(Box<[u8]>),
    Int(i64),
}

/// A compiled type.
pub(crate) struct Plan {
    pub root: Node,
    pub records: Vec<Record>,
    /// `Node::Record(i)` for each record, to start a walk at one.
    pub record_nodes: Vec<Node>,
    /// No Python code of the user's runs while decoding (no
    /// `__post_init__`, custom `__init__`, factory other than a built-in
    /// type, or finalizer): the cyclic GC can be paused meanwhile, as
    /// `loads` does, without anyone seeing it.
    pub pure: bool,
    /// The type reads a `Decimal` somewhere: the input is parsed losslessly,
    /// so that a literal beyond the double range (`1e400`) reaches the
    /// builder and a Decimal reads it exactly; every other type refuses it
    /// there (`Builder::float`, `numbers::big`, `Builder::raw_object`).
    pub exact_numbers: bool,
    /// Python objects the builder needs, looked up once.
    pub known: Known,
}

/// Types and objects the builder creates values with.
pub(crate) struct Known {
    pub decimal: Py<PyType>,
    pub uuid: Py<PyType>,
    /// `uuid.SafeUUID.unknown`, what `UUID(...)` stores in `is_safe`.
    pub safe_unknown: Py<PyAny>,
    /// Where `uuid.UUID` keeps `int` and `is_safe` (its `__slots__`).
    pub uuid_slots: Option<(isize, isize)>,
    pub int_name: Py<PyString>,
    pub is_safe_name: Py<PyString>,
    pub empty_tuple: Py<PyAny>,
}

impl Plan {
    /// The record at `index`.
    #[inline(always)]
    pub(crate) fn record(&self, index: u32) -> &Record {
        &self.records[index as usize]
    }
}

/// The object `ty.__new__` makes without arguments, for classes whose
/// `tp_new` is `object`'s.
///
/// # Safety
/// GIL held; `ty` is a live type whose `tp_new` is `object.__new__`;
/// `empty` is the empty tuple.
#[inline]
pub(crate) unsafe fn object_new(ty: *mut ffi::PyTypeObject, empty: *mut ffi::PyObject) -> *mut ffi::PyObject {
    // SAFETY: per the contract; object.__new__ with no arguments only
    // allocates (and, on 3.11+, prepares the instance's inline values).
    unsafe {
        match (*ty).tp_new {
            Some(new) => new(ty, empty, std::ptr::null_mut()),
            None => std::ptr::null_mut(),
        }
    }
}
