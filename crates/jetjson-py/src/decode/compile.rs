//! Python types to plans (`plan.rs`), once per `Decoder`.
//!
//! Types are recognised through the `typing` module's own introspection
//! (`get_origin`, `get_args`, `get_type_hints`), records through
//! `schema::record`. Anything the builder cannot honour exactly is refused
//! here, with a `TypeError` naming the type and where it was found, rather
//! than decoded approximately: a union of two kinds read from the same JSON
//! kind (`str | datetime`), a union of dataclasses without a tag, an
//! `InitVar` without a default when the class has `__post_init__`.

use std::sync::atomic::{AtomicU32, AtomicU8};

use crate::fallible::{name, new_str};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple, PyType};
use pyo3::{ffi, PyTypeInfo};

use super::names::Names;
use super::plan::{
    object_new, Build, Choices, Default, DictNode, Field, Inline, KeyKind, Known, Node, Plan, Record, Rules, Store, TagValue, TaggedNode,
    UnionNode,
};
use crate::schema::{self, Kind};

extern "C" {
    // CPython's type attribute lookup through the MRO; exported by every
    // CPython 3 build. Returns a borrowed reference or null (no exception).
    fn _PyType_Lookup(ty: *mut ffi::PyTypeObject, name: *mut ffi::PyObject) -> *mut ffi::PyObject;
}

/// Compiles `ty` into a plan.
pub(crate) fn compile(ty: &Bound<'_, PyAny>) -> PyResult<Plan> {
    let py = ty.py();
    let mut c = Compiler::new(py)?;
    let mut root = c.node(ty).map_err(|e| c.context(e))?;
    let mut records: Vec<Record> = c.records.into_iter().map(|r| r.expect("every record is compiled before the plan is done")).collect();
    resolve_tags(&mut root, &mut records)?;
    let record_nodes = (0..records.len() as u32).map(Node::Record).collect();
    let pure = records.iter().all(|r| pure(py, r));
    Ok(Plan { root, records, record_nodes, pure, exact_numbers: c.exact_numbers, known: c.known })
}

struct Compiler<'py> {
    py: Python<'py>,
    records: Vec<Option<Record>>,
    /// Each record's kind, known from when its compiling starts (a union
    /// inside a `NamedTuple` that holds that `NamedTuple` again must know
    /// it reads as an array).
    kinds: Vec<Kind>,
    /// Classes compiled or being compiled, by address (the class is held
    /// by its record's plan, or by the type being compiled).
    memo: Vec<(Py<PyType>, u32)>,
    /// Generic records read with type arguments (`Box[int]`), by the
    /// subscripted form (compared with `==`), held here.
    generic_memo: Vec<(Py<PyAny>, u32)>,
    /// Where we are, for messages: "field x of Order".
    trail: Vec<String>,
    typing: Bound<'py, PyModule>,
    known: Known,
    datetime: Bound<'py, PyAny>,
    date: Bound<'py, PyAny>,
    time: Bound<'py, PyAny>,
    enum_base: Bound<'py, PyAny>,
    enum_flag: Bound<'py, PyAny>,
    raw: Bound<'py, PyAny>,
    none_type: Bound<'py, PyAny>,
    abc: Bound<'py, PyModule>,
    types_union: Option<Bound<'py, PyAny>>,
    /// A `Decimal` is read somewhere (`Plan::exact_numbers`).
    exact_numbers: bool,
}

impl<'py> Compiler<'py> {
    fn new(py: Python<'py>) -> PyResult<Compiler<'py>> {
        let class = |m: &str, n: &str| -> PyResult<Bound<'py, PyAny>> { py.import(new_str(py, m)?)?.getattr(new_str(py, n)?) };
        let uuid = class("uuid", "UUID")?.cast_into::<PyType>()?;
        let uuid_slots = match (slot_of(&uuid, name!(py, "int")?), slot_of(&uuid, name!(py, "is_safe")?)) {
            (Store::Slot(a), Store::Slot(b)) if uuid.getattr(name!(py, "__setattr__")?).is_ok() => Some((a, b)),
            _ => None,
        };
        let known = Known {
            decimal: class("decimal", "Decimal")?.cast_into::<PyType>()?.unbind(),
            safe_unknown: class("uuid", "SafeUUID")?.getattr(name!(py, "unknown")?)?.unbind(),
            uuid: uuid.unbind(),
            uuid_slots,
            int_name: name!(py, "int")?.clone().unbind(),
            is_safe_name: name!(py, "is_safe")?.clone().unbind(),
            empty_tuple: PyTuple::empty(py).into_any().unbind(),
        };
        Ok(Compiler {
            py,
            records: Vec::new(),
            kinds: Vec::new(),
            memo: Vec::new(),
            generic_memo: Vec::new(),
            trail: Vec::new(),
            typing: py.import(name!(py, "typing")?)?,
            known,
            datetime: class("datetime", "datetime")?,
            date: class("datetime", "date")?,
            time: class("datetime", "time")?,
            enum_base: class("enum", "Enum")?,
            enum_flag: class("enum", "Flag")?,
            raw: crate::raw::Raw::type_object(py).into_any(),
            none_type: py.None().bind(py).get_type().into_any(),
            abc: py.import(name!(py, "collections.abc")?)?,
            types_union: class("types", "UnionType").ok(),
            exact_numbers: false,
        })
    }

    /// Adds where the error was found to a `TypeError` from compiling.
    fn context(&self, e: PyErr) -> PyErr {
        if self.trail.is_empty() || !e.is_instance_of::<PyTypeError>(self.py) {
            return e;
        }
        let where_ = self.trail.iter().rev().cloned().collect::<Vec<_>>().join(" of ");
        PyTypeError::new_err(format!("{} (in {where_})", e.value(self.py)))
    }

    fn unsupported(&self, t: &Bound<'_, PyAny>) -> PyErr {
        PyTypeError::new_err(format!("jetjson cannot decode into {}", repr(t)))
    }

    fn node(&mut self, t: &Bound<'py, PyAny>) -> PyResult<Node> {
        let py = self.py;
        let builtins = |name: &str| -> PyResult<bool> { Ok(t.is(&py.import(name!(py, "builtins")?)?.getattr(new_str(py, name)?)?)) };
        if t.is(&self.typing.getattr(name!(py, "Any")?)?) || builtins("object")? {
            return Ok(Node::Any);
        }
        if t.is_none() || t.is(&self.none_type) {
            return Ok(Node::Null);
        }
        if let Ok(ty) = t.cast::<PyType>() {
            // Exact classes first: subclasses of bool/int/str are not these.
            if ty.is(py.get_type::<PyBool>()) {
                return Ok(Node::Bool);
            }
            if ty.is(py.get_type::<PyInt>()) {
                return Ok(Node::Int);
            }
            for (name, node) in [("float", Node::Float), ("str", Node::Str), ("bytes", Node::Bytes)] {
                if builtins(name)? {
                    return Ok(node);
                }
            }
            if t.is(&self.datetime) {
                return Ok(Node::DateTime);
            }
            if t.is(&self.date) {
                return Ok(Node::Date);
            }
            if t.is(&self.time) {
                return Ok(Node::Time);
            }
            if t.is(self.known.uuid.bind(py)) {
                return Ok(Node::Uuid);
            }
            if t.is(self.known.decimal.bind(py)) {
                self.exact_numbers = true;
                return Ok(Node::Decimal);
            }
            if t.is(&self.raw) {
                return Ok(Node::Raw);
            }
            if builtins("list")? {
                return Ok(Node::List(Box::new(Node::Any)));
            }
            if builtins("tuple")? {
                return Ok(Node::TupleOf(Box::new(Node::Any)));
            }
            if builtins("set")? {
                return Ok(Node::Set(Box::new(Node::Any)));
            }
            if builtins("frozenset")? {
                return Ok(Node::FrozenSet(Box::new(Node::Any)));
            }
            if builtins("dict")? {
                return Ok(Node::Dict(Box::new(DictNode { key: KeyKind::Str, value: Node::Any })));
            }
            if ty.is_subclass(&self.enum_base)? {
                return self.enumeration(ty);
            }
            if schema::record(ty)?.is_some() {
                return self.record(ty);
            }
            return Err(self.unsupported(t));
        }
        let origin = self.typing.getattr(name!(py, "get_origin")?)?.call1((t,))?;
        if !origin.is_none() {
            let args = self.typing.getattr(name!(py, "get_args")?)?.call1((t,))?.cast_into::<PyTuple>()?;
            return self.generic(t, &origin, &args);
        }
        if t.is_instance(&self.typing.getattr(name!(py, "TypeVar")?)?)? {
            // A type variable no type argument stands for: its bound, else
            // one of its constraints, else anything.
            let bound = t.getattr(name!(py, "__bound__")?)?;
            if !bound.is_none() {
                return self.node(&bound);
            }
            let constraints = t.getattr(name!(py, "__constraints__")?)?.cast_into::<PyTuple>()?;
            return if constraints.is_empty() { Ok(Node::Any) } else { self.union(&constraints) };
        }
        if let Ok(sup) = t.getattr(name!(py, "__supertype__")?) {
            // typing.NewType
            return self.node(&sup);
        }
        if t.is_instance(&self.typing.getattr(name!(py, "ForwardRef")?)?)? {
            return Err(PyTypeError::new_err(format!(
                "jetjson cannot decode into the unresolved annotation {} (a forward reference: pass the class itself)",
                repr(t)
            )));
        }
        if let Ok(s) = t.cast::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "jetjson cannot decode into the unresolved annotation {:?} (a forward reference: pass the class itself)",
                s.to_string()
            )));
        }
        Err(self.unsupported(t))
    }

    /// What constraints a value read as `node` can be held to: bounds
    /// (ordered values: numbers, Decimals, dates and times), lengths (str,
    /// bytes, containers) and a pattern (str). `Any` and a union (any
    /// member) allow everything.
    fn constrainable(&self, node: &Node) -> Constrainable {
        let all = Constrainable { bounds: true, length: true, pattern: true };
        let none = Constrainable { bounds: false, length: false, pattern: false };
        match node {
            Node::Any | Node::Raw | Node::Choice(_) => all,
            Node::Int | Node::Float | Node::Decimal | Node::DateTime | Node::Date | Node::Time => Constrainable { bounds: true, ..none },
            Node::Str => Constrainable { length: true, pattern: true, ..none },
            Node::Bytes | Node::List(_) | Node::Set(_) | Node::FrozenSet(_) | Node::TupleOf(_) | Node::Tuple(_) | Node::Dict(_) => {
                Constrainable { length: true, ..none }
            }
            Node::Record(i) => match self.kinds.get(*i as usize) {
                Some(Kind::Dataclass) => none,
                Some(_) => Constrainable { length: true, ..none },
                None => all,
            },
            Node::Optional(inner) => self.constrainable(inner),
            Node::Checked(b) => self.constrainable(&b.0),
            Node::Union(u) => {
                [&u.boolean, &u.int, &u.float, &u.string, &u.array, &u.object].into_iter().flatten().map(|n| self.constrainable(n)).fold(
                    none,
                    |a, b| Constrainable { bounds: a.bounds || b.bounds, length: a.length || b.length, pattern: a.pattern || b.pattern },
                )
            }
            Node::Null | Node::Bool | Node::Uuid | Node::Tagged(_) | Node::Skip | Node::Extra => none,
        }
    }

    /// Refuses `Annotated[T, Meta(...)]` whose constraints cannot apply to
    /// `T` (a bound on a str, a length on an int, a pattern on a list):
    /// they would fail at every decode, or never be checked.
    fn check_applies(&self, t: &Bound<'py, PyAny>, inner: &Node, r: &Rules) -> PyResult<()> {
        let can = self.constrainable(inner);
        let asked = [
            (
                r.ge.is_some() || r.gt.is_some() || r.le.is_some() || r.lt.is_some(),
                can.bounds,
                "ge/gt/le/lt (for numbers, Decimals, dates and times)",
            ),
            (r.min_length.is_some() || r.max_length.is_some(), can.length, "min_length/max_length (for str, bytes and containers)"),
            (r.pattern.is_some(), can.pattern, "pattern (for str)"),
        ];
        match asked.iter().find(|(set, ok, _)| *set && !*ok) {
            Some((_, _, which)) => Err(PyTypeError::new_err(format!("{}: Meta constraint {which} cannot apply to this type", repr(t)))),
            None => self.check_bound_types(t, inner, r),
        }
    }

    /// Refuses a bound that the values read as `inner` cannot be compared
    /// with (`Meta(ge="a")` on an int, a datetime bound on a date): every
    /// decode would fail on it, blaming the input.
    fn check_bound_types(&self, t: &Bound<'py, PyAny>, inner: &Node, r: &Rules) -> PyResult<()> {
        let py = self.py;
        let mut node = inner;
        loop {
            match node {
                Node::Optional(n) => node = n,
                Node::Checked(b) => node = &b.0,
                _ => break,
            }
        }
        let numbers = || -> PyResult<Vec<Bound<'py, PyAny>>> {
            Ok(vec![py.import(name!(py, "numbers")?)?.getattr(name!(py, "Real")?)?, self.known.decimal.bind(py).clone().into_any()])
        };
        let (kinds, what) = match node {
            Node::Int | Node::Float | Node::Decimal => (numbers()?, "a number (int, float or Decimal)"),
            Node::DateTime => (vec![self.datetime.clone()], "a datetime"),
            Node::Date => (vec![self.date.clone()], "a date (not a datetime)"),
            Node::Time => (vec![self.time.clone()], "a time"),
            _ => return Ok(()),
        };
        for (name, bound) in [("ge", &r.ge), ("gt", &r.gt), ("le", &r.le), ("lt", &r.lt)] {
            let Some(b) = bound else { continue };
            let b = b.bind(py);
            let mut fits = false;
            for k in &kinds {
                fits |= b.is_instance(k)?;
            }
            if !fits || (matches!(node, Node::Date) && b.is_instance(&self.datetime)?) {
                return Err(PyTypeError::new_err(format!("{}: Meta constraint {name}={} must be {what}", repr(t), repr(b))));
            }
        }
        Ok(())
    }

    /// `X[...]` forms.
    fn generic(&mut self, t: &Bound<'py, PyAny>, origin: &Bound<'py, PyAny>, args: &Bound<'py, PyTuple>) -> PyResult<Node> {
        let py = self.py;
        let typing = |name: &str| self.typing.getattr(new_str(py, name)?);
        let abc = |name: &str| self.abc.getattr(new_str(py, name)?);
        let builtin = |name: &str| -> PyResult<Bound<'py, PyAny>> { py.import(name!(py, "builtins")?)?.getattr(new_str(py, name)?) };
        // A bare alias (`typing.List`, `typing.Dict`, `typing.Tuple`) has no
        // `__args__`: its parameters are `Any`, as for the bare builtin
        // (`tuple[()]` and `Tuple[()]` have `__args__`, empty on 3.11+).
        let bare = args.is_empty() && !t.hasattr(name!(py, "__args__")?)?;
        let arg = |i: usize| -> PyResult<Bound<'py, PyAny>> {
            if bare {
                typing("Any")
            } else {
                args.get_item(i)
            }
        };
        if origin.is(&typing("Annotated")?) {
            let inner = self.node(&arg(0)?)?;
            let rules = rules(&t.getattr(name!(py, "__metadata__")?)?)?;
            if let Some(r) = &rules {
                self.check_applies(t, &inner, r)?;
            }
            return Ok(match rules {
                Some(r) => Node::Checked(Box::new((inner, r))),
                None => inner,
            });
        }
        if origin.is(&typing("Union")?) || self.types_union.as_ref().is_some_and(|u| origin.is(u)) {
            return self.union(args);
        }
        if origin.is(&typing("Literal")?) {
            return self.literal(t, args);
        }
        for wrapper in ["Required", "NotRequired", "Final", "ReadOnly"] {
            if typing(wrapper).is_ok_and(|w| origin.is(&w)) {
                return self.node(&arg(0)?);
            }
        }
        let is = |candidates: &[Bound<'py, PyAny>]| candidates.iter().any(|c| origin.is(c));
        if is(&[builtin("list")?, abc("Sequence")?, abc("MutableSequence")?, abc("Collection")?, abc("Iterable")?]) {
            return Ok(Node::List(Box::new(self.node(&arg(0)?)?)));
        }
        if is(&[builtin("set")?, abc("MutableSet")?, abc("Set")?]) {
            return Ok(Node::Set(Box::new(self.node(&arg(0)?)?)));
        }
        if origin.is(&builtin("frozenset")?) {
            return Ok(Node::FrozenSet(Box::new(self.node(&arg(0)?)?)));
        }
        if origin.is(&builtin("tuple")?) {
            if bare {
                return Ok(Node::TupleOf(Box::new(Node::Any)));
            }
            if args.len() == 2 && arg(1)?.is(py.Ellipsis().bind(py)) {
                return Ok(Node::TupleOf(Box::new(self.node(&arg(0)?)?)));
            }
            // `tuple[()]` has no args on 3.11+, `((),)` before.
            let items: Vec<Node> =
                args.iter().filter(|a| !a.cast::<PyTuple>().is_ok_and(|t| t.is_empty())).map(|a| self.node(&a)).collect::<PyResult<_>>()?;
            return Ok(Node::Tuple(items.into_boxed_slice()));
        }
        if is(&[builtin("dict")?, abc("Mapping")?, abc("MutableMapping")?]) {
            let key = arg(0)?;
            let key = if key.is(&builtin("str")?) || key.is(&typing("Any")?) {
                KeyKind::Str
            } else if key.is(&builtin("int")?) {
                KeyKind::Int
            } else {
                return Err(PyTypeError::new_err(format!("dict keys must be str or int to be read from JSON names, not {}", repr(&key))));
            };
            return Ok(Node::Dict(Box::new(DictNode { key, value: self.node(&arg(1)?)? })));
        }
        if let Ok(ty) = origin.cast::<PyType>() {
            // A generic record read with type arguments (`Page[Item]`): its
            // fields' type variables are read as those types.
            if schema::record(ty)?.is_some() {
                return if bare { self.record(ty) } else { self.record_of(ty, Some((t, args))) };
            }
        }
        Err(self.unsupported(t))
    }

    fn union(&mut self, args: &Bound<'py, PyTuple>) -> PyResult<Node> {
        let mut u = UnionNode::default();
        let mut records: Vec<u32> = Vec::new();
        let mut raw = false;
        // Named before the members are placed (`place` names the union when
        // two members take one JSON kind).
        u.what = args.iter().map(|a| repr(&a)).collect::<Vec<_>>().join(" | ");
        for a in args.iter() {
            let n = self.node(&a)?;
            match n {
                Node::Any => return Ok(Node::Any),
                Node::Raw => raw = true,
                n => self.place(&mut u, n, &mut records)?,
            }
        }
        if raw {
            // Raw takes any value: only `Raw | None` is unambiguous.
            if u.boolean.is_some()
                || u.int.is_some()
                || u.float.is_some()
                || u.string.is_some()
                || u.array.is_some()
                || u.object.is_some()
                || !records.is_empty()
            {
                return Err(PyTypeError::new_err(format!(
                    "jetjson.Raw takes any JSON value: it can only be in a union with None, not in {}",
                    u.what
                )));
            }
            return Ok(Node::Optional(Box::new(Node::Raw)));
        }
        match records.len() {
            0 => {}
            1 => set(&mut u.object, Node::Record(records[0]), "object", &u.what.clone())?,
            _ => {
                let tagged = self.tagged(&records, &u.what)?;
                set(&mut u.object, tagged, "object", &u.what.clone())?;
            }
        }
        let members = [&u.boolean, &u.int, &u.float, &u.string, &u.array, &u.object].iter().filter(|m| m.is_some()).count();
        if u.null && members == 1 {
            let only = [u.boolean, u.int, u.float, u.string, u.array, u.object].into_iter().flatten().next();
            return Ok(Node::Optional(Box::new(only.expect("one member"))));
        }
        if !u.null && members == 1 {
            return Ok([u.boolean, u.int, u.float, u.string, u.array, u.object].into_iter().flatten().next().expect("one member"));
        }
        if !u.null && members == 0 {
            return Err(PyTypeError::new_err("an empty union"));
        }
        if members == 0 {
            return Ok(Node::Null);
        }
        Ok(Node::Union(Box::new(u)))
    }

    /// Puts a union member where the JSON kinds it is read from go.
    fn place(&mut self, u: &mut UnionNode, n: Node, records: &mut Vec<u32>) -> PyResult<()> {
        let what = u.what.clone();
        match n {
            Node::Null => u.null = true,
            Node::Bool => set(&mut u.boolean, n, "bool", &what)?,
            Node::Int => set(&mut u.int, n, "integer", &what)?,
            Node::Float => set(&mut u.float, n, "number", &what)?,
            Node::Decimal => {
                set(&mut u.float, Node::Decimal, "number", &what)?;
                set(&mut u.string, Node::Decimal, "string", &what)?;
            }
            Node::Str | Node::Bytes | Node::DateTime | Node::Date | Node::Time | Node::Uuid => set(&mut u.string, n, "string", &what)?,
            Node::Choice(c) => {
                if !c.strs.is_empty() {
                    set(&mut u.string, Node::Choice(Box::new(c.clone_ref(self.py))), "string", &what)?;
                }
                if !c.ints.is_empty() || c.flag.is_some() {
                    set(&mut u.int, Node::Choice(Box::new(c.clone_ref(self.py))), "integer", &what)?;
                }
                if c.bools.iter().any(Option::is_some) {
                    set(&mut u.boolean, Node::Choice(Box::new(c.clone_ref(self.py))), "bool", &what)?;
                }
                if c.null.is_some() {
                    return Err(PyTypeError::new_err(format!("Literal[None] in a union: write None instead, in {what}")));
                }
            }
            Node::List(_) | Node::Set(_) | Node::FrozenSet(_) | Node::TupleOf(_) | Node::Tuple(_) => set(&mut u.array, n, "array", &what)?,
            Node::Record(i) if self.kinds[i as usize] == Kind::NamedTuple => set(&mut u.array, n, "array", &what)?,
            Node::Record(i) => records.push(i),
            Node::Dict(_) | Node::Tagged(_) => set(&mut u.object, n, "object", &what)?,
            Node::Optional(inner) => {
                u.null = true;
                self.place(u, *inner, records)?;
            }
            Node::Union(inner) => {
                let inner = *inner;
                u.null |= inner.null;
                for m in [inner.boolean, inner.int, inner.float, inner.string, inner.array, inner.object].into_iter().flatten() {
                    self.place(u, m, records)?;
                }
            }
            Node::Checked(b) => {
                let kind = kind_of(&b.0, &self.records);
                match kind {
                    "bool" => set(&mut u.boolean, Node::Checked(b), kind, &what)?,
                    "integer" => set(&mut u.int, Node::Checked(b), kind, &what)?,
                    "number" => set(&mut u.float, Node::Checked(b), kind, &what)?,
                    "string" => set(&mut u.string, Node::Checked(b), kind, &what)?,
                    "array" => set(&mut u.array, Node::Checked(b), kind, &what)?,
                    "object" => set(&mut u.object, Node::Checked(b), kind, &what)?,
                    _ => return Err(PyTypeError::new_err(format!("a constrained type that cannot be in a union: {what}"))),
                }
            }
            Node::Any | Node::Raw | Node::Skip | Node::Extra => return Err(PyTypeError::new_err(format!("cannot be in a union: {what}"))),
        }
        Ok(())
    }

    /// A union of records told apart by a tag member (`tagged`), or, when
    /// one of them is still being compiled (the union is inside it), a
    /// node whose tags `resolve_tags` reads once every record is compiled.
    fn tagged(&self, records: &[u32], what: &str) -> PyResult<Node> {
        let recs: Option<Vec<&Record>> = records.iter().map(|&i| self.records[i as usize].as_ref()).collect();
        match recs {
            Some(recs) => Ok(Node::Tagged(Box::new(tagged(&recs, records, what)?))),
            None => Ok(Node::Tagged(Box::new(TaggedNode {
                field: Box::new([]),
                field_text: String::new(),
                strs: Vec::new(),
                ints: Vec::new(),
                what: what.to_owned(),
                pending: records.into(),
            }))),
        }
    }

    fn literal(&mut self, t: &Bound<'py, PyAny>, args: &Bound<'py, PyTuple>) -> PyResult<Node> {
        let mut c = Choices { what: repr(t), ..Choices::default() };
        for v in args.iter() {
            add_choice(&mut c, &v, &v, t)?;
        }
        Ok(Node::Choice(Box::new(c)))
    }

    fn enumeration(&mut self, ty: &Bound<'py, PyType>) -> PyResult<Node> {
        let mut c = Choices { what: schema::class_name(ty), ..Choices::default() };
        for member in ty.try_iter()? {
            let member = member?;
            let value = member.getattr(name!(self.py, "value")?)?;
            add_choice(&mut c, &value, &member, ty.as_any())?;
        }
        if ty.is_subclass(&self.enum_flag)? && c.strs.is_empty() && c.bools.iter().all(Option::is_none) && c.null.is_none() {
            c.flag = Some(ty.clone().into_any().unbind());
        }
        Ok(Node::Choice(Box::new(c)))
    }

    fn record(&mut self, class: &Bound<'py, PyType>) -> PyResult<Node> {
        self.record_of(class, None)
    }

    /// The record `class`, or (`generic`: the subscripted form and its
    /// arguments) the generic record `class` read with type arguments.
    fn record_of(&mut self, class: &Bound<'py, PyType>, generic: Option<(&Bound<'py, PyAny>, &Bound<'py, PyTuple>)>) -> PyResult<Node> {
        let seen = match generic {
            None => self.memo.iter().find(|(c, _)| c.bind(self.py).is(class)).map(|&(_, i)| i),
            Some((alias, _)) => {
                let mut found = None;
                for (key, i) in &self.generic_memo {
                    if key.bind(self.py).eq(alias)? {
                        found = Some(*i);
                        break;
                    }
                }
                found
            }
        };
        if let Some(i) = seen {
            return Ok(Node::Record(i));
        }
        let spec = schema::record(class)?.ok_or_else(|| self.unsupported(class.as_any()))?;
        let index = self.records.len() as u32;
        self.records.push(None);
        self.kinds.push(spec.kind);
        match generic {
            None => self.memo.push((class.clone().unbind(), index)),
            Some((alias, _)) => self.generic_memo.push((alias.clone().unbind(), index)),
        }
        let what = match generic {
            None => schema::class_name(class),
            Some((alias, _)) => repr(alias),
        };
        let hints = match spec.kind {
            Kind::TypedDict => None,
            _ => Some(schema::typing_hints(class, true)?),
        };
        // Each field's annotation, its type variables replaced by what
        // they stand for here (`_schema._resolve_type_vars`).
        let annotations = crate::fallible::new_dict(self.py)?;
        for f in &spec.fields {
            let annotation = match &hints {
                Some(h) => h.get_item(f.name.bind(self.py))?.unwrap_or_else(|| f.annotation.bind(self.py).clone()),
                None => f.annotation.bind(self.py).clone(),
            };
            annotations.set_item(f.name.bind(self.py), annotation)?;
        }
        let args = match generic {
            Some((_, args)) => args.clone().into_any(),
            None => self.py.None().into_bound(self.py),
        };
        let resolve = self.py.import(name!(self.py, "jetjson._schema")?)?.getattr(name!(self.py, "_resolve_type_vars")?)?;
        let annotations = resolve.call1((class, args, annotations))?;
        let mut members = Vec::new();
        let mut others = Vec::new();
        for f in spec.fields {
            let annotation = annotations.get_item(f.name.bind(self.py))?;
            self.trail.push(format!("field {} of {what}", f.name.bind(self.py)));
            let node = self.node(&annotation)?;
            self.trail.pop();
            let default = match f.default {
                schema::Default::Required => Default::Required,
                schema::Default::Value(v) => Default::Value(v),
                schema::Default::Factory(v) => Default::Factory(v),
                schema::Default::Absent => Default::Absent,
            };
            let store = if spec.kind == Kind::Dataclass { slot_of(class, f.name.bind(self.py)) } else { Store::Attr };
            let field = Field {
                name: crate::fallible::interned(self.py, f.name.bind(self.py).to_str()?)?.unbind(),
                json: f.json_text,
                node,
                default,
                store,
                init: f.init,
            };
            if f.in_json {
                members.push(field);
            } else {
                if matches!(field.default, Default::Required) {
                    return Err(PyTypeError::new_err(format!(
                        "{what}.{}: a field whose name starts with '_' is not read from JSON (give it metadata={{\"json\": ...}} to read it), so it needs a default",
                        field.name.bind(self.py)
                    )));
                }
                others.push(field);
            }
        }
        let names = Names::new(members.iter().map(|f| f.json.as_bytes().into()).collect());
        let count = members.len();
        members.extend(others);
        let (build, (post_init, post_args)) = match spec.kind {
            Kind::Dataclass => (build_of(class)?, post_init_of(class)?),
            _ => (Build::New, (None, Vec::new())),
        };
        let tag = match spec.tag {
            Some(t) => {
                let v = t.value.bind(self.py);
                let value = match v.cast::<PyString>() {
                    Ok(s) => TagValue::Str(s.to_str()?.as_bytes().into()),
                    Err(_) => {
                        TagValue::Int(v.extract::<i64>().map_err(|_| PyTypeError::new_err(format!("{what}: an int tag must fit 64 bits")))?)
                    }
                };
                Some((t.field_text.as_bytes().into(), value))
            }
            None => None,
        };
        let tag_node = match &tag {
            Some((_, value)) => {
                let mut c = Choices { what: format!("the tag of {what}"), ..Choices::default() };
                match value {
                    TagValue::Str(s) => c.strs.push((s.clone(), self.py.None())),
                    TagValue::Int(n) => c.ints.push((*n, self.py.None())),
                }
                Node::Choice(Box::new(c))
            }
            None => Node::Skip,
        };
        let inline = match (spec.kind, &build) {
            (Kind::Dataclass, Build::New) if inline_layout(class) && members.iter().all(|f| matches!(f.store, Store::Attr)) => {
                Some(Inline {
                    version: AtomicU32::new(0),
                    refused: AtomicU32::new(0),
                    index: members.iter().map(|_| AtomicU8::new(0)).collect(),
                })
            }
            _ => None,
        };
        self.records[index as usize] = Some(Record {
            inline,
            kind: spec.kind,
            class: class.clone().unbind(),
            fields: members,
            members: count,
            names,
            build,
            post_init,
            post_args,
            tag,
            tag_node,
        });
        Ok(Node::Record(index))
    }
}

/// A union of the records `recs` (indexes `records`) told apart by a tag
/// member: the classes' declared tag (`__jetjson_tag__`), else a member
/// that is a `Literal` in each.
fn tagged(recs: &[&Record], records: &[u32], what: &str) -> PyResult<TaggedNode> {
    let mut t = TaggedNode {
        field: Box::new([]),
        field_text: String::new(),
        strs: Vec::new(),
        ints: Vec::new(),
        what: what.to_owned(),
        pending: Box::new([]),
    };
    if recs.iter().all(|r| r.tag.is_some()) {
        let field = &recs[0].tag.as_ref().expect("tagged").0;
        if recs.iter().any(|r| r.tag.as_ref().is_some_and(|(f, _)| f != field)) {
            return Err(PyTypeError::new_err(format!("the classes of {what} put their tags in different members")));
        }
        t.field = field.clone();
        for (r, &i) in recs.iter().zip(records) {
            match &r.tag.as_ref().expect("tagged").1 {
                TagValue::Str(s) => t.strs.push((s.clone(), i)),
                TagValue::Int(n) => t.ints.push((*n, i)),
            }
        }
    } else {
        // The first member of the first class that is a Literal in
        // every class.
        let first = recs[0];
        let found = first.fields[..first.members]
            .iter()
            .find(|f| recs.iter().all(|r| r.fields[..r.members].iter().any(|g| g.json == f.json && literal_of(&g.node).is_some())));
        let Some(f) = found else {
            return Err(PyTypeError::new_err(format!(
                "the classes of {what} cannot be told apart: give them a tag (jetjson.config(tag=...)) or a Literal member they all have"
            )));
        };
        t.field = f.json.as_bytes().into();
        for (r, &i) in recs.iter().zip(records) {
            let g = r.fields[..r.members].iter().find(|g| g.json == f.json).expect("checked above");
            let c = literal_of(&g.node).expect("checked above");
            t.strs.extend(c.strs.iter().map(|(s, _)| (s.clone(), i)));
            t.ints.extend(c.ints.iter().map(|(n, _)| (*n, i)));
        }
    }
    t.field_text = String::from_utf8_lossy(&t.field).into_owned();
    let mut strs: Vec<_> = t.strs.iter().map(|(s, _)| s.clone()).collect();
    strs.sort();
    strs.dedup();
    let mut ints: Vec<_> = t.ints.iter().map(|(n, _)| *n).collect();
    ints.sort_unstable();
    ints.dedup();
    if strs.len() != t.strs.len() || ints.len() != t.ints.len() {
        return Err(PyTypeError::new_err(format!("two classes of {what} have the same tag")));
    }
    Ok(t)
}

/// Reads the tags of the unions left pending (`Compiler::tagged`) now that
/// every record is compiled: first every pending node's tags, from the
/// records as they are, then each node replaced, in the same order.
fn resolve_tags(root: &mut Node, records: &mut [Record]) -> PyResult<()> {
    let mut found = Vec::new();
    {
        let recs: &[Record] = records;
        let mut read = |t: &TaggedNode| -> PyResult<()> {
            let members: Vec<&Record> = t.pending.iter().map(|&i| &recs[i as usize]).collect();
            found.push(tagged(&members, &t.pending, &t.what)?);
            Ok(())
        };
        pending_in(root, &mut read)?;
        for r in recs {
            for f in &r.fields {
                pending_in(&f.node, &mut read)?;
            }
        }
    }
    if found.is_empty() {
        return Ok(());
    }
    let mut next = found.into_iter();
    let mut put = |t: &mut TaggedNode| *t = next.next().expect("one resolved node per pending one");
    pending_in_mut(root, &mut put);
    for r in records.iter_mut() {
        for f in r.fields.iter_mut() {
            pending_in_mut(&mut f.node, &mut put);
        }
    }
    Ok(())
}

/// Calls `f` on every pending tagged node in `n`, in order.
fn pending_in(n: &Node, f: &mut dyn FnMut(&TaggedNode) -> PyResult<()>) -> PyResult<()> {
    match n {
        Node::Tagged(t) if !t.pending.is_empty() => f(t),
        Node::List(n) | Node::Set(n) | Node::FrozenSet(n) | Node::TupleOf(n) | Node::Optional(n) => pending_in(n, f),
        Node::Tuple(items) => items.iter().try_for_each(|n| pending_in(n, f)),
        Node::Dict(d) => pending_in(&d.value, f),
        Node::Union(u) => {
            [&u.boolean, &u.int, &u.float, &u.string, &u.array, &u.object].into_iter().flatten().try_for_each(|n| pending_in(n, f))
        }
        Node::Checked(c) => pending_in(&c.0, f),
        _ => Ok(()),
    }
}

/// `pending_in`, for replacing them (same order).
fn pending_in_mut(n: &mut Node, f: &mut dyn FnMut(&mut TaggedNode)) {
    match n {
        Node::Tagged(t) if !t.pending.is_empty() => f(t),
        Node::List(n) | Node::Set(n) | Node::FrozenSet(n) | Node::TupleOf(n) | Node::Optional(n) => pending_in_mut(n, f),
        Node::Tuple(items) => items.iter_mut().for_each(|n| pending_in_mut(n, f)),
        Node::Dict(d) => pending_in_mut(&mut d.value, f),
        Node::Union(u) => [&mut u.boolean, &mut u.int, &mut u.float, &mut u.string, &mut u.array, &mut u.object]
            .into_iter()
            .flatten()
            .for_each(|n| pending_in_mut(n, f)),
        Node::Checked(c) => pending_in_mut(&mut c.0, f),
        _ => {}
    }
}

/// Whether instances of `class` have CPython 3.11's inline values (a heap
/// type with a managed dict, no finalizer), where `plan::Inline` applies.
fn inline_layout(class: &Bound<'_, PyType>) -> bool {
    let v = class.py().version_info();
    let ty = class.as_ptr() as *mut ffi::PyTypeObject;
    // SAFETY: reads flags and slots of a live type.
    (v.major, v.minor) == (3, 11)
        && unsafe {
            let flags = ffi::PyType_GetFlags(ty);
            flags & ffi::Py_TPFLAGS_MANAGED_DICT != 0
                && flags & ffi::Py_TPFLAGS_HEAPTYPE != 0
                && (*ty).tp_finalize.is_none()
                && (*ty).tp_del.is_none()
        }
}

/// The class's version tag and the inline-values index of each field
/// (see `plan::Inline`), learned from a probe instance: made with
/// `object.__new__`, given each field with `object.__setattr__` in
/// declaration order (the field names themselves as values), then read
/// back: the values array must hold each name where the insertion-order
/// bytes say, and nothing else may have happened (no dict made, the tag
/// unchanged). Any surprise means no fast path (`None`).
///
/// # Safety
/// GIL held; `class` passed `inline_layout` when planned (CPython 3.11,
/// managed dict); `empty` is the empty tuple. Runs no Python code (no
/// data descriptor stands for a field, which is checked first).
pub(crate) unsafe fn learn_inline(
    class: *mut ffi::PyTypeObject,
    names: &[*mut ffi::PyObject],
    empty: *mut ffi::PyObject,
) -> Option<(u32, Vec<u8>)> {
    let ty = class;
    if names.is_empty() || names.len() > 250 {
        return None;
    }
    // SAFETY: the probe instance is ours and is read through the 3.11
    // layout (the type has a managed dict, checked when planned); every
    // index read is one the instance's own insertion-order bytes give,
    // for as many fields as were stored (checked against their count).
    unsafe {
        // No data descriptor may stand for a field (its __set__ would run);
        // the lookups also give the class a valid version tag.
        for &name in names {
            let d = _PyType_Lookup(ty, name);
            if !d.is_null() && (*ffi::Py_TYPE(d)).tp_descr_set.is_some() {
                return None;
            }
        }
        if ffi::PyType_GetFlags(ty) & ffi::Py_TPFLAGS_VALID_VERSION_TAG == 0 {
            return None;
        }
        let version = (*ty).tp_version_tag;
        let probe = object_new(ty, empty);
        if probe.is_null() {
            ffi::PyErr_Clear();
            return None;
        }
        let values_at = (probe as *mut *mut *mut ffi::PyObject).sub(4);
        let dict_at = (probe as *mut *mut ffi::PyObject).sub(3);
        let mut index = Vec::with_capacity(names.len());
        let mut ok = !(*values_at).is_null() && (*dict_at).is_null();
        for &name in names {
            if !ok {
                break;
            }
            ok = ffi::PyObject_GenericSetAttr(probe, name, name) == 0;
        }
        if !ok {
            ffi::PyErr_Clear();
        }
        let values = *values_at;
        if ok && !values.is_null() && (*dict_at).is_null() {
            let bytes = values as *const u8;
            let count = usize::from(*bytes.sub(2));
            ok = count == names.len() && usize::from(*bytes.sub(1)) >= count + 2;
            for (k, &name) in names.iter().enumerate() {
                if !ok {
                    break;
                }
                let ix = *bytes.sub(3 + k);
                ok = *values.add(usize::from(ix)) == name;
                index.push(ix);
            }
        } else {
            ok = false;
        }
        ffi::Py_DECREF(probe);
        let still = ffi::PyType_GetFlags(ty) & ffi::Py_TPFLAGS_VALID_VERSION_TAG != 0 && (*ty).tp_version_tag == version;
        (ok && still && version != 0).then_some((version, index))
    }
}

/// Whether making `r` runs no Python code of the user's (see `Plan::pure`).
fn pure(py: Python<'_>, r: &Record) -> bool {
    let builtin_factory = |f: &Py<PyAny>| {
        ["list", "dict", "set", "frozenset", "tuple", "str", "bytes", "int", "float", "bool"].iter().any(|n| {
            name!(py, "builtins")
                .and_then(|m| py.import(m))
                .and_then(|b| crate::fallible::new_str(py, n).and_then(|n| b.getattr(n)))
                .is_ok_and(|t| t.is(f.bind(py)))
        })
    };
    let ty = r.class.as_ptr() as *mut ffi::PyTypeObject;
    // SAFETY: reads two slots of a live type.
    let finalizer = unsafe { (*ty).tp_finalize.is_some() || (*ty).tp_del.is_some() };
    r.post_init.is_none()
        && matches!(r.build, Build::New)
        && !finalizer
        && r.fields.iter().all(|f| match &f.default {
            Default::Factory(x) => builtin_factory(x),
            _ => true,
        })
}

/// Which kinds of constraint a node can be held to (`Compiler::constrainable`).
#[derive(Clone, Copy)]
struct Constrainable {
    bounds: bool,
    length: bool,
    pattern: bool,
}

/// The only constraint names read from `Annotated` metadata: those of
/// `jetjson.Meta` (and of annotated-types' `Ge`, `Le`, `Gt`, `Lt`,
/// `MinLen`, `MaxLen`, `Interval`, `Len`, read by attribute name). Other
/// metadata is ignored.
fn rules(metadata: &Bound<'_, PyAny>) -> PyResult<Option<Rules>> {
    let py = metadata.py();
    let mut r = Rules::default();
    let mut any = false;
    for m in metadata.try_iter()? {
        let m = m?;
        let ty = m.get_type();
        // A type whose `__module__` is not text is no jetjson rule; no memory
        // to read it is raised, not read as no rule.
        let module = match ty.module().and_then(|s| s.to_cow().map(|c| c.into_owned())) {
            Ok(s) => s,
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyMemoryError>(py) => return Err(e),
            Err(_) => String::new(),
        };
        if !(module == "jetjson" || module.starts_with("jetjson.") || module == "annotated_types") {
            continue;
        }
        let get = |name: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
            // Absent is no rule; any other failure (no memory for the
            // name) is raised, not read as no rule.
            match m.getattr(new_str(py, name)?) {
                Ok(v) if !v.is_none() => Ok(Some(v)),
                Ok(_) => Ok(None),
                Err(e) if e.is_instance_of::<pyo3::exceptions::PyAttributeError>(py) => Ok(None),
                Err(e) => Err(e),
            }
        };
        for (name, slot) in [("ge", &mut r.ge), ("gt", &mut r.gt), ("le", &mut r.le), ("lt", &mut r.lt)] {
            if let Some(v) = get(name)? {
                *slot = Some(v.unbind());
                any = true;
            }
        }
        for (name, slot) in [("min_length", &mut r.min_length), ("max_length", &mut r.max_length)] {
            if let Some(v) = get(name)? {
                *slot = Some(v.extract::<usize>()?);
                any = true;
            }
        }
        if let Some(p) = get("pattern")? {
            let re = py.import(name!(py, "re")?)?;
            let error = re.getattr(name!(py, "error")?)?;
            let compiled = re.getattr(name!(py, "compile")?)?.call1((&p,)).map_err(|e| {
                if e.is_instance(py, &error) {
                    PyValueError::new_err(format!("Meta constraint pattern={} is not a regular expression: {}", repr(&p), e.value(py)))
                } else {
                    e
                }
            })?;
            r.pattern = Some(compiled.unbind());
            any = true;
        }
    }
    Ok(any.then_some(r))
}

fn add_choice(c: &mut Choices, value: &Bound<'_, PyAny>, result: &Bound<'_, PyAny>, owner: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = value.py();
    if value.is_none() {
        c.null = Some(result.clone().unbind());
    } else if value.is_instance_of::<PyBool>() {
        let b = value.is_truthy()?;
        c.bools[usize::from(b)] = Some(result.clone().unbind());
    } else if value.is_instance_of::<PyInt>() {
        let n = value.extract::<i64>().map_err(|_| PyTypeError::new_err(format!("{}: int values must fit 64 bits", repr(owner))))?;
        if !c.ints.iter().any(|(m, _)| *m == n) {
            c.ints.push((n, result.clone().unbind()));
        }
    } else if let Ok(s) = value.cast::<PyString>() {
        let b: Box<[u8]> = s.to_str()?.as_bytes().into();
        if !c.strs.iter().any(|(m, _)| *m == b) {
            c.strs.push((b, result.clone().unbind()));
        }
    } else {
        let _ = py;
        return Err(PyTypeError::new_err(format!(
            "{}: only str, int, bool and None values can be read from JSON, not {}",
            repr(owner),
            repr(value)
        )));
    }
    Ok(())
}

fn literal_of(n: &Node) -> Option<&Choices> {
    match n {
        // A flag's values are open-ended: not a tag.
        Node::Choice(c) if c.bools.iter().all(Option::is_none) && c.null.is_none() && c.flag.is_none() => Some(c),
        _ => None,
    }
}

fn set(slot: &mut Option<Node>, n: Node, kind: &str, what: &str) -> PyResult<()> {
    if slot.is_some() {
        return Err(PyTypeError::new_err(format!("two members of {what} are read from a JSON {kind}: they cannot be told apart")));
    }
    *slot = Some(n);
    Ok(())
}

fn kind_of(n: &Node, records: &[Option<Record>]) -> &'static str {
    match n {
        Node::Bool => "bool",
        Node::Int => "integer",
        Node::Float | Node::Decimal => "number",
        Node::Str | Node::Bytes | Node::DateTime | Node::Date | Node::Time | Node::Uuid => "string",
        Node::List(_) | Node::Set(_) | Node::FrozenSet(_) | Node::TupleOf(_) | Node::Tuple(_) => "array",
        Node::Record(i) if records[*i as usize].as_ref().is_some_and(|r| r.kind == Kind::NamedTuple) => "array",
        Node::Dict(_) | Node::Record(_) | Node::Tagged(_) => "object",
        _ => "",
    }
}

/// Where a dataclass field's value goes: straight into a `__slots__`
/// member when the class's attribute is one of CPython's object slots
/// (checked: a member descriptor of type `T_OBJECT_EX`, writable, of a
/// base of `class`, inside the instance), else through `setattr` rules.
fn slot_of(class: &Bound<'_, PyType>, name: &Bound<'_, PyString>) -> Store {
    let ty = class.as_ptr() as *mut ffi::PyTypeObject;
    // SAFETY: `class` and `name` are live; _PyType_Lookup returns a
    // borrowed reference (or null) and runs no Python code; the descriptor
    // is only read while `class` (which holds it in a dict of its MRO) is
    // held, and checked to be a member descriptor before its fields are read.
    unsafe {
        let d = _PyType_Lookup(ty, name.as_ptr());
        if d.is_null() || ffi::Py_TYPE(d) != std::ptr::addr_of_mut!(ffi::PyMemberDescr_Type) {
            return Store::Attr;
        }
        let descr = d as *mut ffi::PyMemberDescrObject;
        let member = (*descr).d_member;
        let owner = (*descr).d_common.d_type;
        if member.is_null()
            || owner.is_null()
            || (*member).type_code != ffi::Py_T_OBJECT_EX
            || (*member).flags & ffi::Py_READONLY != 0
            || ffi::PyType_IsSubtype(ty, owner) == 0
            || (*member).offset <= 0
            || (*member).offset as usize + std::mem::size_of::<*mut ffi::PyObject>() > (*ty).tp_basicsize as usize
        {
            return Store::Attr;
        }
        Store::Slot((*member).offset)
    }
}

/// `New` when instances can be made as the dataclass's own `__init__`
/// would (its `__new__` is `object`'s and its `__init__` is the one
/// `@dataclass` generated, or `object`'s); `Call` otherwise.
fn build_of(class: &Bound<'_, PyType>) -> PyResult<Build> {
    let py = class.py();
    let ty = class.as_ptr() as *mut ffi::PyTypeObject;
    // SAFETY: reads a slot of two live type objects.
    let new_is_object =
        unsafe { (*ty).tp_new.map(|f| f as usize) == (*std::ptr::addr_of_mut!(ffi::PyBaseObject_Type)).tp_new.map(|f| f as usize) };
    if !new_is_object {
        return Ok(Build::Call);
    }
    let init = class.getattr(name!(py, "__init__")?)?;
    if init.is(&py.get_type::<pyo3::types::PyAny>().getattr(name!(py, "__init__")?)?) {
        return Ok(Build::New);
    }
    Ok(if generated_init(class)?.is_some() { Build::New } else { Build::Call })
}

/// The class's `__init__` when it is one `@dataclass` generated (compiled
/// from source text by `exec`).
fn generated_init<'py>(class: &Bound<'py, PyType>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = class.py();
    let init = class.getattr(name!(py, "__init__")?)?;
    let generated = init
        .getattr(name!(py, "__code__")?)
        .and_then(|code| code.getattr(name!(py, "co_filename")?))
        .is_ok_and(|f| f.cast::<PyString>().is_ok_and(|s| s.to_str().is_ok_and(|s| s == "<string>")));
    Ok(generated.then_some(init))
}

/// Whether instances get a `__post_init__` call (its name, looked up on
/// each new instance as `__init__` looks it up), and the arguments it is
/// called with.
type PostInit = (Option<Py<PyString>>, Vec<Py<PyAny>>);

/// Whether `__post_init__` is called, as the class's own `__init__` decides:
/// one `@dataclass` generated calls it when the class had one when it was
/// decorated (its code names it), and looks it up on the instance at each
/// call, so one replaced later (`mock.patch.object`) is the one called and
/// one added later is not called; with `object`'s `__init__`
/// (`init=False`), when the class has one. And the defaults of the
/// `InitVar`s it takes (an `InitVar` is not read from JSON, so it must have
/// a default).
fn post_init_of(class: &Bound<'_, PyType>) -> PyResult<PostInit> {
    let py = class.py();
    let name = name!(py, "__post_init__")?;
    let calls = match generated_init(class)? {
        // Called (and looked up) even when the class has none now: the
        // lookup then fails as `__init__`'s does.
        Some(init) => init
            .getattr(name!(py, "__code__")?)
            .and_then(|code| code.getattr(name!(py, "co_names")?))
            .and_then(|names| names.contains(name))
            .unwrap_or(false),
        None => class.getattr(name).is_ok(),
    };
    if !calls {
        return Ok((None, Vec::new()));
    }
    let dataclasses = py.import(name!(py, "dataclasses")?)?;
    let initvar = dataclasses.getattr(name!(py, "_FIELD_INITVAR")?)?;
    let missing = dataclasses.getattr(name!(py, "MISSING")?)?;
    let mut defaults = Vec::new();
    let fields = class.getattr(name!(py, "__dataclass_fields__")?)?.cast_into::<PyDict>()?;
    for f in crate::fallible::dict_values(&fields)? {
        if f.getattr(name!(py, "_field_type")?)?.is(&initvar) {
            let d = f.getattr(name!(py, "default")?)?;
            if d.is(&missing) {
                return Err(PyTypeError::new_err(format!(
                    "{}.{}: an InitVar is not read from JSON, so with __post_init__ it needs a default",
                    schema::class_name(class),
                    f.getattr(name!(py, "name")?)?
                )));
            }
            defaults.push(d.unbind());
        }
    }
    Ok((Some(name.clone().unbind()), defaults))
}

pub(crate) fn repr(t: &Bound<'_, PyAny>) -> String {
    if let Ok(ty) = t.cast::<PyType>() {
        if let Ok(name) = ty.name() {
            return name.to_string();
        }
    }
    t.repr().map(|r| r.to_string().replace("typing.", "")).unwrap_or_else(|_| "?".to_owned())
}
