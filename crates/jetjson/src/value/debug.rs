//! `{:?}` for `Value` by a loop over an explicit stack, with the output of
//! the derived, recursive `Debug` it replaces (which overflowed the
//! thread's stack some 50,000 levels deep): `Array([Number(Int(1))])`,
//! `Object(Map { members: [("k", Null)] })`, and with `{:#?}` the same
//! layout `debug_tuple`, `debug_list` and `debug_struct` give, four spaces
//! per level. Leaves (`bool`, numbers, strings) are formatted by their own
//! `Debug`, with the caller's flags, as the derived code did.

use std::fmt::{self, Debug, Formatter};

use super::{Number, Str, Value};

/// What is left to write, innermost last.
enum Task<'a> {
    Value(&'a Value),
    /// The items of an array not yet written, and whether none was.
    Items(std::slice::Iter<'a, Value>, bool),
    /// The members of an object not yet written, and whether none was.
    Members(std::slice::Iter<'a, (Str, Value)>, bool),
    /// The end of a field (`,` in the `{:#?}` layout).
    EndField,
    /// The end of a group: its text in the `{:#?}` layout and in the plain
    /// one, and whether it had fields (an empty one closes on its line).
    Close(&'static str, &'static str, bool),
}

/// The formatter and the depth of groups open.
struct Out<'f, 'g> {
    f: &'f mut Formatter<'g>,
    pretty: bool,
    depth: usize,
}

impl Out<'_, '_> {
    fn text(&mut self, s: &str) -> fmt::Result {
        self.f.write_str(s)
    }

    fn open(&mut self, pretty: &str, plain: &str) -> fmt::Result {
        self.depth += 1;
        self.text(if self.pretty { pretty } else { plain })
    }

    /// Before a field: its line and indentation, or `, ` after another.
    fn field(&mut self, first: bool) -> fmt::Result {
        if self.pretty {
            self.text("\n")?;
            for _ in 0..self.depth {
                self.text("    ")?;
            }
        } else if !first {
            self.text(", ")?;
        }
        Ok(())
    }

    fn end_field(&mut self) -> fmt::Result {
        if self.pretty {
            self.text(",")?;
        }
        Ok(())
    }

    fn close(&mut self, pretty: &str, plain: &str, had_fields: bool) -> fmt::Result {
        self.depth -= 1;
        if self.pretty && had_fields {
            self.text("\n")?;
            for _ in 0..self.depth {
                self.text("    ")?;
            }
        }
        self.text(if self.pretty { pretty } else { plain })
    }

    /// `Name(leaf)`, as `debug_tuple(Name).field(leaf)`.
    fn tuple(&mut self, name: &str, leaf: &dyn Debug) -> fmt::Result {
        self.text(name)?;
        self.open("(", "(")?;
        self.field(true)?;
        leaf.fmt(self.f)?;
        self.end_field()?;
        self.close(")", ")", true)
    }

    fn number(&mut self, n: &Number) -> fmt::Result {
        self.open("Number(", "Number(")?;
        self.field(true)?;
        match n {
            Number::Int(i) => self.tuple("Int", i)?,
            Number::UInt(u) => self.tuple("UInt", u)?,
            Number::Float(x) => self.tuple("Float", x)?,
            Number::Big(t) => self.tuple("Big", t)?,
        }
        self.end_field()?;
        self.close(")", ")", true)
    }
}

impl Debug for Value {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let pretty = f.alternate();
        let mut out = Out { f, pretty, depth: 0 };
        let mut tasks = vec![Task::Value(self)];
        while let Some(task) = tasks.pop() {
            match task {
                Task::Value(Value::Null) => out.text("Null")?,
                Task::Value(Value::Bool(b)) => out.tuple("Bool", b)?,
                Task::Value(Value::Number(n)) => out.number(n)?,
                Task::Value(Value::String(s)) => out.tuple("String", s)?,
                Task::Value(Value::Array(a)) => {
                    out.open("Array(", "Array(")?;
                    out.field(true)?;
                    out.open("[", "[")?;
                    tasks.extend([
                        Task::Close(")", ")", true),
                        Task::EndField,
                        Task::Close("]", "]", !a.is_empty()),
                        Task::Items(a.iter(), true),
                    ]);
                }
                Task::Value(Value::Object(m)) => {
                    out.open("Object(", "Object(")?;
                    out.field(true)?;
                    out.open("Map {", "Map { ")?;
                    out.field(true)?;
                    out.text("members: ")?;
                    out.open("[", "[")?;
                    tasks.extend([
                        Task::Close(")", ")", true),
                        Task::EndField,
                        Task::Close("}", " }", true),
                        Task::EndField,
                        Task::Close("]", "]", !m.is_empty()),
                        Task::Members(m.members().iter(), true),
                    ]);
                }
                Task::Items(mut items, first) => {
                    if let Some(item) = items.next() {
                        out.field(first)?;
                        tasks.extend([Task::Items(items, false), Task::EndField, Task::Value(item)]);
                    }
                }
                Task::Members(mut members, first) => {
                    if let Some((k, v)) = members.next() {
                        // `(name, value)`, as a tuple's `Debug` writes it.
                        out.field(first)?;
                        out.open("(", "(")?;
                        out.field(true)?;
                        k.fmt(out.f)?;
                        out.end_field()?;
                        out.field(false)?;
                        tasks.extend([
                            Task::Members(members, false),
                            Task::EndField,
                            Task::Close(")", ")", true),
                            Task::EndField,
                            Task::Value(v),
                        ]);
                    }
                }
                Task::EndField => out.end_field()?,
                Task::Close(pretty, plain, had) => out.close(pretty, plain, had)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Number, Str, Value};
    use std::fmt::{self, Debug, Formatter};

    /// The `Debug` the derive gave `Value` before (recursive), to compare with.
    struct Derived<'a>(&'a Value);

    impl Debug for Derived<'_> {
        fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
            match self.0 {
                Value::Null => f.write_str("Null"),
                Value::Bool(b) => f.debug_tuple("Bool").field(b).finish(),
                Value::Number(n) => f.debug_tuple("Number").field(n).finish(),
                Value::String(s) => f.debug_tuple("String").field(s).finish(),
                Value::Array(a) => f.debug_tuple("Array").field(&Items(a.as_slice())).finish(),
                Value::Object(m) => f.debug_tuple("Object").field(&DerivedMap(m.members())).finish(),
            }
        }
    }

    struct Items<'a>(&'a [Value]);
    impl Debug for Items<'_> {
        fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
            f.debug_list().entries(self.0.iter().map(Derived)).finish()
        }
    }

    struct DerivedMap<'a>(&'a [(Str, Value)]);
    impl Debug for DerivedMap<'_> {
        fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
            let members: Vec<(&Str, Derived)> = self.0.iter().map(|(k, v)| (k, Derived(v))).collect();
            f.debug_struct("Map").field("members", &members).finish()
        }
    }

    fn samples() -> Vec<Value> {
        let nested =
            Value::from_slice(br#"{"a":[1,-2,18446744073709551615,1e300,0.5,"s\n\"",true,null,{},[]],"b":{"c":[[{"d":[]}]]},"":{"x":1}}"#)
                .unwrap();
        vec![
            Value::Null,
            Value::Bool(false),
            Value::Number(Number::Float(f64::NAN)),
            Value::Number(Number::Big("12".into())),
            Value::from("tab\t\u{2028}é"),
            Value::Array(Vec::<Value>::new().into()),
            Value::Object(Default::default()),
            Value::from(vec![Value::from(1.25)]),
            nested.clone(),
            Value::from(vec![nested.clone(), Value::Null, nested]),
        ]
    }

    /// Plain, `{:#?}` and flags passed on to leaves: as the derive wrote.
    #[test]
    fn debug_is_the_derived_output() {
        for v in samples() {
            assert_eq!(format!("{v:?}"), format!("{:?}", Derived(&v)));
            assert_eq!(format!("{v:#?}"), format!("{:#?}", Derived(&v)));
            assert_eq!(format!("{v:.1?}"), format!("{:.1?}", Derived(&v)));
        }
        let v = Value::from_slice(br#"{"k":[1,"s"]}"#).unwrap();
        assert_eq!(format!("{v:?}"), r#"Object(Map { members: [("k", Array([Number(Int(1)), String("s")]))] })"#);
    }
}
