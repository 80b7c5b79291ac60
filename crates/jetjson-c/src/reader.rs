//! `jetjson_parse`: the strict parser driving the caller's callbacks
//! (SAX style), no DOM built. Strings and keys arrive decoded (UTF-8,
//! escapes resolved); numbers arrive as a value and as their literal text.

use std::os::raw::{c_char, c_int, c_void};

use jetjson::parse::{NumberToken, NumberValue};
use jetjson::ErrorKind;

use crate::boundary::{self, Failure};
use crate::options::read_options;
use crate::types::{self, Error, Number, ReadOptions, Status, Visitor};

/// The core's `Visitor` over the caller's callbacks.
struct CVisitor<'v> {
    callbacks: &'v Visitor,
    user: *mut c_void,
    /// The callback that stopped the parse and what it returned.
    stopped: Option<(&'static str, c_int)>,
}

impl CVisitor<'_> {
    /// A callback's return value: non-zero stops the parse. The parser puts
    /// the position of the token on the error.
    fn check(&mut self, name: &'static str, r: c_int) -> jetjson::Result<()> {
        if r == 0 {
            return Ok(());
        }
        self.stopped = Some((name, r));
        Err(jetjson::Error::new(ErrorKind::Custom(format!("the {name} callback returned {r}"))))
    }

    fn event(&mut self, name: &'static str, f: Option<unsafe extern "C" fn(*mut c_void) -> c_int>) -> jetjson::Result<()> {
        match f {
            // SAFETY: a callback the caller registered, with its user pointer.
            Some(f) => self.check(name, unsafe { f(self.user) }),
            None => Ok(()),
        }
    }

    fn text(
        &mut self,
        name: &'static str,
        f: Option<unsafe extern "C" fn(*mut c_void, *const c_char, usize) -> c_int>,
        s: &str,
    ) -> jetjson::Result<()> {
        match f {
            // SAFETY: as in `event`; `s` is valid for the call.
            Some(f) => self.check(name, unsafe { f(self.user, s.as_ptr() as *const c_char, s.len()) }),
            None => Ok(()),
        }
    }
}

/// The C view of a number token: the exact value in the field its kind
/// names, the nearest double in `f64` whatever the kind.
fn number(n: &NumberToken<'_>) -> Number {
    let mut out = Number {
        kind: types::NUMBER_F64,
        is_integer: c_int::from(n.is_integer),
        i64: 0,
        u64: 0,
        f64: 0.0,
        text: n.text.as_ptr() as *const c_char,
        text_len: n.text.len(),
    };
    match n.value {
        NumberValue::I64(v) => {
            out.kind = types::NUMBER_I64;
            out.i64 = v;
            out.f64 = v as f64;
        }
        NumberValue::U64(v) => {
            out.kind = types::NUMBER_U64;
            out.u64 = v;
            out.f64 = v as f64;
        }
        NumberValue::F64(v) => out.f64 = v,
        NumberValue::Big => {
            out.kind = types::NUMBER_BIG;
            // Correctly rounded (only integers beyond 64 bits: the parse
            // refuses literals beyond the double range).
            out.f64 = n.text.parse().unwrap_or(f64::NAN);
        }
    }
    out
}

impl jetjson::parse::Visitor for CVisitor<'_> {
    fn null(&mut self) -> jetjson::Result<()> {
        self.event("null_value", self.callbacks.null_value)
    }
    fn bool(&mut self, v: bool) -> jetjson::Result<()> {
        match self.callbacks.boolean {
            // SAFETY: as in `event`.
            Some(f) => self.check("boolean", unsafe { f(self.user, c_int::from(v)) }),
            None => Ok(()),
        }
    }
    fn number(&mut self, n: NumberToken<'_>) -> jetjson::Result<()> {
        match self.callbacks.number {
            Some(f) => {
                let token = number(&n);
                // SAFETY: as in `event`; `token` and the text it points to
                // live until the callback returns.
                self.check("number", unsafe { f(self.user, &token) })
            }
            None => Ok(()),
        }
    }
    fn string(&mut self, s: &str, _raw: &str) -> jetjson::Result<()> {
        self.text("string", self.callbacks.string, s)
    }
    fn begin_array(&mut self) -> jetjson::Result<()> {
        self.event("begin_array", self.callbacks.begin_array)
    }
    fn end_array(&mut self) -> jetjson::Result<()> {
        self.event("end_array", self.callbacks.end_array)
    }
    fn begin_object(&mut self) -> jetjson::Result<()> {
        self.event("begin_object", self.callbacks.begin_object)
    }
    fn key(&mut self, k: &str, _raw: &str) -> jetjson::Result<()> {
        self.text("key", self.callbacks.key, k)
    }
    fn end_object(&mut self) -> jetjson::Result<()> {
        self.event("end_object", self.callbacks.end_object)
    }
}

/// `jetjson_parse`.
///
/// # Safety
/// See `jetjson.h`.
#[no_mangle]
pub unsafe extern "C" fn jetjson_parse(
    json: *const u8,
    len: usize,
    read: *const ReadOptions,
    visitor: *const Visitor,
    user: *mut c_void,
    err: *mut Error,
) -> Status {
    // SAFETY: the caller's contract (jetjson.h), forwarded to each helper.
    unsafe {
        boundary::run(err, || {
            let json = boundary::input(json, len, "json")?;
            let read = read_options(read)?;
            if visitor.is_null() {
                return Err(Failure::argument("visitor is NULL"));
            }
            let mut v = CVisitor { callbacks: &*visitor, user, stopped: None };
            jetjson::parse::parse(json, &read, &mut v).map_err(|e| match v.stopped {
                Some(_) => {
                    let mut f = Failure::new(types::ERR_CALLBACK, e.message());
                    f.position = e.position();
                    f
                }
                None => Failure::from_core(&e),
            })
        })
    }
}
