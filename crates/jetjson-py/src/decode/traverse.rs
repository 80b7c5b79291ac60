//! The cyclic garbage collector's view of a `Decoder`: every Python object
//! its plan holds a strong reference to. Without it, a decoder kept where
//! its own type can reach it (a class attribute, a default value holding
//! it) would keep that cycle alive forever. Only `visit.call` runs here:
//! the collector forbids any other use of the interpreter.

use pyo3::pyclass::{PyTraverseError, PyVisit};

use super::plan::{Choices, Default, Node, Plan, Record, Rules};

type Visited = Result<(), PyTraverseError>;

impl Plan {
    /// Visits every object of the plan.
    pub(crate) fn traverse(&self, visit: &PyVisit<'_>) -> Visited {
        node(&self.root, visit)?;
        for r in &self.records {
            record(r, visit)?;
        }
        // `record_nodes` are `Node::Record` indexes: no objects.
        let k = &self.known;
        visit.call(&k.decimal)?;
        visit.call(&k.uuid)?;
        visit.call(&k.safe_unknown)?;
        visit.call(&k.int_name)?;
        visit.call(&k.is_safe_name)?;
        visit.call(&k.empty_tuple)
    }
}

fn record(r: &Record, visit: &PyVisit<'_>) -> Visited {
    visit.call(&r.class)?;
    for f in &r.fields {
        visit.call(&f.name)?;
        node(&f.node, visit)?;
        match &f.default {
            Default::Value(v) | Default::Factory(v) => visit.call(v)?,
            Default::Required | Default::Absent => {}
        }
    }
    visit.call(&r.post_init)?;
    for a in &r.post_args {
        visit.call(a)?;
    }
    node(&r.tag_node, visit)
}

fn node(n: &Node, visit: &PyVisit<'_>) -> Visited {
    match n {
        Node::Any
        | Node::Null
        | Node::Bool
        | Node::Int
        | Node::Float
        | Node::Str
        | Node::Bytes
        | Node::DateTime
        | Node::Date
        | Node::Time
        | Node::Uuid
        | Node::Decimal
        | Node::Raw
        | Node::Record(_)
        | Node::Tagged(_)
        | Node::Skip
        | Node::Extra => Ok(()),
        Node::Choice(c) => choices(c, visit),
        Node::List(n) | Node::Set(n) | Node::FrozenSet(n) | Node::TupleOf(n) | Node::Optional(n) => node(n, visit),
        Node::Tuple(items) => items.iter().try_for_each(|n| node(n, visit)),
        Node::Dict(d) => node(&d.value, visit),
        Node::Union(u) => {
            [&u.boolean, &u.int, &u.float, &u.string, &u.array, &u.object].into_iter().flatten().try_for_each(|n| node(n, visit))
        }
        Node::Checked(c) => {
            node(&c.0, visit)?;
            rules(&c.1, visit)
        }
    }
}

fn choices(c: &Choices, visit: &PyVisit<'_>) -> Visited {
    for (_, v) in &c.strs {
        visit.call(v)?;
    }
    for (_, v) in &c.ints {
        visit.call(v)?;
    }
    for v in &c.bools {
        visit.call(v)?;
    }
    visit.call(&c.flag)?;
    visit.call(&c.null)
}

fn rules(r: &Rules, visit: &PyVisit<'_>) -> Visited {
    visit.call(&r.ge)?;
    visit.call(&r.gt)?;
    visit.call(&r.le)?;
    visit.call(&r.lt)?;
    visit.call(&r.pattern)
}
