//! The cold path of `dumps`: everything that is not an exact built-in type.
//!
//! Order matters: our `Raw` first, then subclasses of the built-in types
//! (cheap flag tests; `IntEnum` and `StrEnum` members are written here as
//! their int or str), then datetime (before date, its base class), date,
//! time, UUID, Decimal, Enum, dataclasses, bytes (go), and `default` last.

use jetjson::{Error, ErrorKind, KeyOrder};
use pyo3::ffi::{self, PyObject};
use pyo3::prelude::*;
use pyo3::types::PyType;

use super::fail::{Fail, Walk};
use super::shapes::Tag;
use super::walk::{bytes_of, utf8_of, Hold, Walker, MAX_DETOURS};
use super::{dataclass, time};
use crate::raw::Raw;

impl<S: jetjson::Sink> Walker<'_, '_, S> {
    /// # Safety
    /// `obj` is a live object held by the caller; GIL held.
    #[cold]
    #[inline(never)]
    pub(super) unsafe fn other(&mut self, obj: *mut PyObject) -> Walk {
        let k = self.known;
        // SAFETY (whole body): `obj` is live and held; type objects and
        // flags are read-only data of live types.
        unsafe {
            let ty = ffi::Py_TYPE(obj);
            // The common exact types first, by address: written from their
            // C-level data (a datetime's tzinfo may be asked its offset,
            // after `before_python`, where a quick walk declines).
            let exact = |t: &Py<PyType>| ty == t.as_ptr() as *mut ffi::PyTypeObject;
            if exact(&k.datetime) {
                return self.moment(obj, time::Kind::DateTime, ty);
            }
            if exact(&k.uuid) {
                return self.uuid(obj);
            }
            if exact(&k.date) {
                return self.moment(obj, time::Kind::Date, ty);
            }
            if exact(&k.time) {
                return self.moment(obj, time::Kind::Time, ty);
            }
            if ty == k.raw {
                return self.raw(obj);
            }
            // A class planned lately, found with no Python code run: its
            // record checks the stack before anything that may run some.
            if let Some(plan) = dataclass::find_recent(ty) {
                return self.record(obj, &plan);
            }
            // Everything below may call into Python, where a nested `dumps`
            // may start: the stack is checked at every such link (and a
            // quick walk declines here, before touching the object).
            self.before_python()?;
            // A class planned before carries its plan (`dataclass.rs`).
            match dataclass::find(self.py, ty) {
                Ok(Some(plan)) => return self.record(obj, &plan),
                Ok(None) => {}
                Err(()) => return Err(Fail::fetch(self.py)),
            }
            // The plan's lookup may have run Python code (a key's `__eq__`
            // in the class dict) that gave the object another class and
            // freed this one: the object's class as it is now.
            let ty = ffi::Py_TYPE(obj);
            let flags = ffi::PyType_GetFlags(ty);
            if flags & ffi::Py_TPFLAGS_UNICODE_SUBCLASS != 0 {
                return self.str(obj);
            }
            if flags & ffi::Py_TPFLAGS_LONG_SUBCLASS != 0 {
                return self.int(obj);
            }
            if ffi::PyFloat_Check(obj) != 0 {
                return self.w.f64(ffi::PyFloat_AS_DOUBLE(obj)).map_err(Fail::core);
            }
            if flags & ffi::Py_TPFLAGS_DICT_SUBCLASS != 0 {
                // Its own `items()` (a dict that redacts or leaves out
                // items), whether its class's, the instance's or a
                // `__getattribute__`'s, is honoured, as `json` asks for it;
                // dict's and OrderedDict's (its real items in its order,
                // which `reordered_dict` reads) are not called.
                let items = Hold::owned(self.get_attr(obj, k.items.as_ptr())?);
                let bound = items.as_ptr() as *mut ffi::PyCFunctionObject;
                let plain = ffi::PyCFunction_Check(items.as_ptr()) != 0
                    && (*bound).m_self == obj
                    && ((*bound).m_ml == k.dict_items || (*bound).m_ml == k.ordered_dict_items);
                if !plain {
                    return self.own_items(obj, &items);
                }
                drop(items);
                // The lookup may have run Python code (a `__getattribute__`)
                // that gave the object another (dict) class: its class now.
                if !iterates_as(ffi::Py_TYPE(obj), std::ptr::addr_of_mut!(ffi::PyDict_Type)) {
                    return self.reordered_dict(obj);
                }
                return self.dict(obj);
            }
            // List and tuple subclasses (namedtuple among them) are arrays,
            // as `json` writes them: of their items, or of what their own
            // `__iter__` gives when they have one.
            if flags & ffi::Py_TPFLAGS_LIST_SUBCLASS != 0 {
                if !iterates_as(ty, std::ptr::addr_of_mut!(ffi::PyList_Type)) {
                    return self.iterated(obj);
                }
                return self.list(obj);
            }
            if flags & ffi::Py_TPFLAGS_TUPLE_SUBCLASS != 0 {
                if !iterates_as(ty, std::ptr::addr_of_mut!(ffi::PyTuple_Type)) {
                    return self.iterated(obj);
                }
                return self.tuple(obj);
            }
            let is = |t: &Py<PyType>| ffi::PyObject_TypeCheck(obj, t.as_ptr() as *mut ffi::PyTypeObject) != 0;
            if is(&k.datetime) {
                return self.moment(obj, time::Kind::DateTime, k.datetime.as_ptr() as *mut ffi::PyTypeObject);
            }
            if is(&k.date) {
                return self.moment(obj, time::Kind::Date, k.date.as_ptr() as *mut ffi::PyTypeObject);
            }
            if is(&k.time) {
                return self.moment(obj, time::Kind::Time, k.time.as_ptr() as *mut ffi::PyTypeObject);
            }
            if is(&k.uuid) {
                return self.uuid(obj);
            }
            if is(&k.decimal) {
                return self.decimal(obj);
            }
            if is(&k.enum_base) {
                return self.enum_value(obj);
            }
            if ffi::PyObject_HasAttr(ty as *mut PyObject, k.dataclass_fields.as_ptr()) != 0 {
                return self.dataclass(obj);
            }
            if flags & ffi::Py_TPFLAGS_BYTES_SUBCLASS != 0 && self.w.style().bytes == jetjson::BytesPolicy::Base64 {
                return self.w.bytes(bytes_of(obj)).map_err(Fail::core);
            }
            self.call_default(obj)
        }
    }

    /// A dict subclass with its own `items()` (`items`, the bound method
    /// found on it): written as the pairs it gives, as `json` writes it (a
    /// dict that redacts values or leaves keys out is written as it says,
    /// not from its table), each a 2-tuple as `json` asks, collected into a
    /// new plain dict first (a key equal to an earlier one is refused: the
    /// copy would keep one pair, under the first key and with the last
    /// value; JSON objects with a name twice are refused by every jetjson
    /// reader). As for a list with its own `__iter__`, the size of
    /// its own storage is checked after the copy is written (`items()` may
    /// make new objects on every call, so they are not compared): "dict
    /// changed size" if it changed from when the copy was made.
    fn own_items(&mut self, obj: *mut PyObject, items: &Hold) -> Walk {
        // SAFETY: `obj` is a live dict subclass held by the caller, `items`
        // a live callable held by the caller; `pairs`, `it`, `copy` and each
        // pair are new references we own (held); a pair's key and value are
        // borrowed from the pair, which is held while they are stored into
        // `copy` (which takes its own references).
        unsafe {
            // An empty one is `{}` whatever its items() says, as json writes
            // it (both its encoders look at the size first).
            if ffi::PyDict_Size(obj) == 0 {
                let empty = ffi::PyDict_New();
                if empty.is_null() {
                    return Err(Fail::fetch(self.py));
                }
                let empty = Hold::owned(empty);
                return self.dict(empty.as_ptr());
            }
            let pairs = ffi::PyObject_CallNoArgs(items.as_ptr());
            if pairs.is_null() {
                return Err(Fail::fetch(self.py));
            }
            let pairs = Hold::owned(pairs);
            let it = ffi::PyObject_GetIter(pairs.as_ptr());
            if it.is_null() {
                return Err(Fail::fetch(self.py));
            }
            let it = Hold::owned(it);
            let copy = ffi::PyDict_New();
            if copy.is_null() {
                return Err(Fail::fetch(self.py));
            }
            let copy = Hold::owned(copy);
            loop {
                let pair = ffi::PyIter_Next(it.as_ptr());
                if pair.is_null() {
                    if !ffi::PyErr_Occurred().is_null() {
                        return Err(Fail::fetch(self.py));
                    }
                    break;
                }
                let pair = Hold::owned(pair);
                if ffi::PyTuple_Check(pair.as_ptr()) == 0 || ffi::PyTuple_GET_SIZE(pair.as_ptr()) != 2 {
                    return Err(Fail::msg(format!(
                        "items() of {} must give (key, value) 2-tuples, not {}",
                        type_name(obj),
                        type_name(pair.as_ptr())
                    )));
                }
                let (key, value) = (ffi::PyTuple_GET_ITEM(pair.as_ptr(), 0), ffi::PyTuple_GET_ITEM(pair.as_ptr(), 1));
                let before = ffi::PyDict_Size(copy.as_ptr());
                if ffi::PyDict_SetItem(copy.as_ptr(), key, value) != 0 {
                    let e = PyErr::fetch(self.py);
                    return Err(Fail::msg(format!("items() of {} gave a key that cannot be a dict key: {e}", type_name(obj))));
                }
                // A key equal to an earlier one (`"a"` twice, or `1`, `True`
                // and `1.0`, which are one dict key but three names under
                // non_str_keys): refused, as a plain dict whose keys write
                // one name twice is. Kept as `dict(pairs)` keeps it, the
                // later value would be written under the earlier key's name
                // and the other pair lost, with no error.
                if ffi::PyDict_Size(copy.as_ptr()) == before {
                    // (Its repr, cut short; if its __repr__ raises, its type.)
                    let shown = match pyo3::Bound::from_borrowed_ptr(self.py, key).repr() {
                        Ok(r) => {
                            let r = r.to_string();
                            match r.char_indices().nth(60) {
                                Some((cut, _)) => format!("{}...", &r[..cut]),
                                None => r,
                            }
                        }
                        Err(_) => format!("(a {} key)", type_name(key)),
                    };
                    return Err(Fail::msg(format!(
                        "items() of {} gave the key {shown} twice (or keys equal to each other): a JSON object cannot hold both",
                        type_name(obj)
                    )));
                }
            }
            drop((it, pairs));
            // Its storage's size once the copy is made (`items()` may have
            // filled it, say lazily): a change from here on is a change
            // while the copy is written.
            let size = ffi::PyDict_Size(obj);
            self.dict(copy.as_ptr())?;
            if ffi::PyDict_Size(obj) != size {
                return Err(Fail::changed("dict changed size"));
            }
        }
        Ok(())
    }

    /// A dict subclass with its own iteration order (OrderedDict after
    /// `move_to_end`): its real items (what its table holds, never what its
    /// `__getitem__` or `keys()` claim), in the order its `__iter__` gives
    /// where that names them, then any it did not name, in table order;
    /// copied into a plain dict first, since the dict's own table keeps
    /// insertion order. The copy is written, so a change to the dict while
    /// it is written (by a `default`, say) would go unseen: it is copied
    /// again afterwards, and any difference (an item added, removed,
    /// replaced or moved) is the "dict changed" error, as for a plain dict.
    fn reordered_dict(&mut self, obj: *mut PyObject) -> Walk {
        let copy = self.ordered_copy(obj)?;
        // SAFETY: a live plain dict, held by `copy` for the call.
        unsafe { self.dict(copy.as_ptr())? };
        let again = self.ordered_copy(obj)?;
        // SAFETY: both copies are plain dicts only this call holds (no
        // Python code runs while they are compared: pointer equality).
        if unsafe { same_items(copy.as_ptr(), again.as_ptr()) } {
            Ok(())
        } else {
            Err(Fail::changed("dict changed"))
        }
    }

    /// `reordered_dict`'s copy of `obj` (a live dict subclass held by the
    /// caller), a new plain dict.
    fn ordered_copy(&mut self, obj: *mut PyObject) -> Result<Hold, Fail> {
        // SAFETY: `obj` is a live dict subclass, held by the caller; `copy`
        // and `it` are new references we own; keys from the iterator are new
        // references, released after use; values are borrowed from `obj`'s
        // table and stored into `copy` (which takes its own reference) before
        // any other Python code can run.
        unsafe {
            let copy = ffi::PyDict_New();
            if copy.is_null() {
                return Err(Fail::fetch(self.py));
            }
            let copy = Hold::owned(copy);
            let it = ffi::PyObject_GetIter(obj);
            if it.is_null() {
                return Err(Fail::fetch(self.py));
            }
            let _it = Hold::owned(it);
            loop {
                let key = ffi::PyIter_Next(it);
                if key.is_null() {
                    break;
                }
                let _key = Hold::owned(key);
                let value = ffi::PyDict_GetItemWithError(obj, key);
                if value.is_null() {
                    if ffi::PyErr_Occurred().is_null() {
                        continue;
                    }
                    return Err(Fail::fetch(self.py));
                }
                let _value = Hold::new(value);
                if ffi::PyDict_SetDefault(copy.as_ptr(), key, value).is_null() {
                    return Err(Fail::fetch(self.py));
                }
            }
            if !ffi::PyErr_Occurred().is_null() {
                return Err(Fail::fetch(self.py));
            }
            // The items `__iter__` did not name.
            let (mut pos, mut k, mut v) = (0, std::ptr::null_mut(), std::ptr::null_mut());
            while ffi::PyDict_Next(obj, &mut pos, &mut k, &mut v) != 0 {
                let (_k, _v) = (Hold::new(k), Hold::new(v));
                if ffi::PyDict_SetDefault(copy.as_ptr(), k, v).is_null() {
                    return Err(Fail::fetch(self.py));
                }
            }
            Ok(copy)
        }
    }

    /// A list or tuple subclass with its own `__iter__`: the items it gives,
    /// collected into a new tuple (which nothing else can change) first.
    /// As a plain list's size is checked after its items are written, the
    /// size of its own storage is checked after the tuple is written (its
    /// `__iter__` may give new objects on every call, so the items are not
    /// compared): "list changed size" if it changed.
    fn iterated(&mut self, obj: *mut PyObject) -> Walk {
        // SAFETY: `obj` is a live list or tuple subclass, held by the
        // caller: its storage's size is its `ob_size`. PySequence_Tuple
        // iterates it through its own `__iter__` (it is not an exact tuple)
        // into a new tuple we own.
        unsafe {
            let size = ffi::Py_SIZE(obj);
            let items = ffi::PySequence_Tuple(obj);
            if items.is_null() {
                return Err(Fail::fetch(self.py));
            }
            let items = Hold::owned(items);
            self.tuple(items.as_ptr())?;
            if ffi::Py_SIZE(obj) != size {
                return Err(Fail::changed("list changed size"));
            }
        }
        Ok(())
    }

    /// # Safety
    /// `obj` is a live `Raw`; GIL held.
    unsafe fn raw(&mut self, obj: *mut PyObject) -> Walk {
        // SAFETY: `obj` is a live Raw (checked by exact type), borrowed for this call.
        let any = unsafe { Bound::from_borrowed_ptr(self.py, obj) };
        // SAFETY: the exact type is Raw's type object.
        let raw = unsafe { any.cast_unchecked::<Raw>() };
        let json = raw.get().json(self.py);
        // A large text embedded as it is: left out, and copied once into
        // the result at the end (`holes.rs`), unless bytes written so far
        // may still move.
        if json.len() >= super::holes::DEFER_AT && self.w.style().raw == jetjson::RawPolicy::Verbatim && !self.w.reordering() {
            let at = self.w.buffered();
            if let Some(holes) = self.holes.as_deref_mut() {
                // SAFETY: the Raw's `bytes` object is live (the Raw holds it);
                // GIL held.
                if unsafe { holes.push(at, raw.get().json_object()) } {
                    return Ok(());
                }
            }
        }
        self.w.raw(json).map_err(Fail::core)
    }

    /// A datetime, date or time (`base` its datetime type), written from its
    /// C-level fields in the layout of `isoformat()` (Go's `time.Time` for
    /// datetimes in go): no Python code runs but a `tzinfo`'s `utcoffset`.
    /// A subclass with its own `isoformat` is written through it (`iso`).
    fn moment(&mut self, obj: *mut PyObject, kind: time::Kind, base: *mut ffi::PyTypeObject) -> Walk {
        match self.moment_fields(obj, kind, base)? {
            Some(m) => {
                let go = self.w.style().profile == jetjson::Profile::Go;
                // SAFETY: `layout` writes within `TEXT_MAX` bytes at the
                // pointer it is given, only ASCII that no profile escapes,
                // and returns the count written.
                unsafe { self.w.str_in_place(time::TEXT_MAX, |p| time::layout(&m, kind, go, p)) }.map_err(Fail::core)
            }
            None => self.iso(obj, kind),
        }
    }

    /// The text `moment` writes, for a dict key: laid out in a buffer of
    /// its own (its first `n` bytes, ASCII).
    fn moment_key(
        &mut self,
        obj: *mut PyObject,
        kind: time::Kind,
        base: *mut ffi::PyTypeObject,
    ) -> Result<Option<([u8; time::TEXT_MAX], usize)>, Fail> {
        let go = self.w.style().profile == jetjson::Profile::Go;
        Ok(self.moment_fields(obj, kind, base)?.map(|m| {
            let mut buf = [0u8; time::TEXT_MAX];
            // SAFETY: `buf` has room for `TEXT_MAX` bytes.
            let n = unsafe { time::layout(&m, kind, go, buf.as_mut_ptr()) };
            (buf, n)
        }))
    }

    /// The fields `moment` writes, read from the C-level fields (and the
    /// `tzinfo`'s offset); `None` for a subclass with its own `isoformat`
    /// (to be asked).
    #[inline(always)]
    fn moment_fields(&mut self, obj: *mut PyObject, kind: time::Kind, base: *mut ffi::PyTypeObject) -> Result<Option<time::Moment>, Fail> {
        // SAFETY: `obj` is a live instance of `base` (or a subclass), held
        // by the caller; its fields are read by the datetime C API's layout
        // for its kind; `tzinfo` is held by `obj` (immutable).
        unsafe {
            let ty = ffi::Py_TYPE(obj);
            if ty != base && !super::types::inherits(ty, base, self.known.isoformat.as_ptr()) {
                return Ok(None);
            }
            let mut m = time::Moment { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, micro: 0, offset: None };
            if kind != time::Kind::Time {
                m.year = ffi::PyDateTime_GET_YEAR(obj) as u16;
                m.month = ffi::PyDateTime_GET_MONTH(obj) as u8;
                m.day = ffi::PyDateTime_GET_DAY(obj) as u8;
            }
            let tzinfo = match kind {
                time::Kind::DateTime => {
                    m.hour = ffi::PyDateTime_DATE_GET_HOUR(obj) as u8;
                    m.minute = ffi::PyDateTime_DATE_GET_MINUTE(obj) as u8;
                    m.second = ffi::PyDateTime_DATE_GET_SECOND(obj) as u8;
                    m.micro = ffi::PyDateTime_DATE_GET_MICROSECOND(obj) as u32;
                    ffi::PyDateTime_DATE_GET_TZINFO(obj)
                }
                time::Kind::Time => {
                    m.hour = ffi::PyDateTime_TIME_GET_HOUR(obj) as u8;
                    m.minute = ffi::PyDateTime_TIME_GET_MINUTE(obj) as u8;
                    m.second = ffi::PyDateTime_TIME_GET_SECOND(obj) as u8;
                    m.micro = ffi::PyDateTime_TIME_GET_MICROSECOND(obj) as u32;
                    ffi::PyDateTime_TIME_GET_TZINFO(obj)
                }
                time::Kind::Date => std::ptr::null_mut(),
            };
            if !tzinfo.is_null() && tzinfo != ffi::Py_None() {
                m.offset = if tzinfo == self.known.utc {
                    Some(0)
                } else {
                    // As isoformat asks: tzinfo.utcoffset(dt) for a
                    // datetime, tzinfo.utcoffset(None) for a time.
                    let arg = if kind == time::Kind::Time { ffi::Py_None() } else { obj };
                    self.utc_offset(tzinfo, arg)?
                };
            }
            Ok(Some(m))
        }
    }

    /// `tzinfo.utcoffset(arg)` in microseconds, checked as CPython checks it
    /// for `isoformat`: None, or a timedelta strictly within a day.
    fn utc_offset(&mut self, tzinfo: *mut PyObject, arg: *mut PyObject) -> Result<Option<i64>, Fail> {
        // Python code runs next (a nested `dumps` may start there).
        self.before_python()?;
        // SAFETY: `tzinfo` and `arg` are live (held by the datetime being
        // written); the result is a new reference we release here, read as
        // a timedelta only once its type says it is one.
        unsafe {
            let r = ffi::PyObject_CallMethodOneArg(tzinfo, self.known.utcoffset.as_ptr(), arg);
            if r.is_null() {
                return Err(Fail::fetch(self.py));
            }
            let out = if r == ffi::Py_None() {
                Ok(None)
            } else if ffi::PyObject_TypeCheck(r, self.known.timedelta) != 0 {
                let us = i64::from(ffi::PyDateTime_DELTA_GET_DAYS(r)) * 86_400_000_000
                    + i64::from(ffi::PyDateTime_DELTA_GET_SECONDS(r)) * 1_000_000
                    + i64::from(ffi::PyDateTime_DELTA_GET_MICROSECONDS(r));
                if us.unsigned_abs() < 86_400_000_000 {
                    Ok(Some(us))
                } else {
                    Err(Fail::py(pyo3::exceptions::PyValueError::new_err(
                        "offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24)",
                    )))
                }
            } else {
                Err(Fail::py(pyo3::exceptions::PyTypeError::new_err(format!(
                    "tzinfo.utcoffset() must return None or timedelta, not '{}'",
                    type_name(r)
                ))))
            };
            ffi::Py_DECREF(r);
            out
        }
    }

    /// datetime/date/time through their own `isoformat()` (a subclass that
    /// overrides it; see `time.rs` for the layout).
    fn iso(&mut self, obj: *mut PyObject, kind: time::Kind) -> Walk {
        let text = self.call_method0(obj, self.known.isoformat.as_ptr())?;
        // SAFETY: `text` is a new reference, owned by `_text`.
        let _text = unsafe { Hold::owned(text) };
        // SAFETY: `text` is live (held); isoformat returns a str.
        unsafe {
            match (ffi::PyUnicode_Check(text) != 0).then(|| utf8_of(text)).flatten() {
                Some(iso) => {
                    let text = self.iso_layout(obj, kind, iso)?;
                    self.w.str(&text).map_err(Fail::core)
                }
                None => Err(Fail::msg("isoformat() did not return a str with text")),
            }
        }
    }

    /// The text written for `iso`, what `isoformat()` of `obj` (a value of
    /// `kind`) returned: itself, or for a datetime in `go` Go's layout of
    /// it (an error when it is not ISO 8601). For values and for dict keys
    /// alike.
    fn iso_layout<'t>(&self, obj: *mut PyObject, kind: time::Kind, iso: &'t str) -> Result<std::borrow::Cow<'t, str>, Fail> {
        if self.w.style().profile != jetjson::Profile::Go || kind != time::Kind::DateTime {
            return Ok(std::borrow::Cow::Borrowed(iso));
        }
        match time::go_layout(iso) {
            Some(text) => Ok(std::borrow::Cow::Owned(text)),
            None => {
                Err(Fail::msg(format!("isoformat() of {} is not an ISO 8601 date and time: {}", type_name(obj), super::fail::quoted(iso))))
            }
        }
    }

    /// `UUID` in its canonical form: 8-4-4-4-12 hex digits, from `.hex`
    /// (lowercase for `uuid.UUID`; a subclass may give its own). Anything
    /// but 32 ASCII hex digits is an error, never sliced.
    fn uuid(&mut self, obj: *mut PyObject) -> Walk {
        // An exact uuid.UUID from its 128-bit int, read from its slot.
        // SAFETY: `obj` is live (held); for an exact UUID the offset is that
        // of its `int` member (an object pointer, or NULL when unset).
        unsafe {
            let off = self.known.uuid_int_offset;
            if off != 0 && ffi::Py_TYPE(obj) == self.known.uuid.as_ptr() as *mut ffi::PyTypeObject {
                let int = *((obj as *mut u8).offset(off) as *mut *mut PyObject);
                if let Some(text) = uuid_from_int(int, self.known.ints_311) {
                    // SAFETY: hex digits and dashes.
                    return self.w.str(std::str::from_utf8_unchecked(&text)).map_err(Fail::core);
                }
            }
        }
        self.before_python()?;
        let hex = self.get_attr(obj, self.known.hex.as_ptr())?;
        // SAFETY: `hex` is a new reference, owned by `_hex`.
        let _hex = unsafe { Hold::owned(hex) };
        // SAFETY: `hex` is live (held), read while we hold it.
        match unsafe { (ffi::PyUnicode_Check(hex) != 0).then(|| utf8_of(hex)).flatten() } {
            Some(h) => match uuid_text(h.as_bytes()) {
                Some(text) => {
                    // SAFETY: `uuid_text` writes ASCII hex digits and dashes only.
                    self.w.str(unsafe { std::str::from_utf8_unchecked(&text) }).map_err(Fail::core)
                }
                None => Err(Fail::msg(format!("UUID.hex of {} is not 32 hex digits", type_name(obj)))),
            },
            None => Err(Fail::msg(format!("UUID.hex of {} is not a str of hex digits", type_name(obj)))),
        }
    }

    /// `Decimal` as its number text (`str(d)`, which is JSON number syntax
    /// for finite values); NaN and infinities follow the `nan` policy as
    /// float NaN and infinities do.
    fn decimal(&mut self, obj: *mut PyObject) -> Walk {
        // SAFETY: `obj` is a live Decimal.
        let text = unsafe { ffi::PyObject_Str(obj) };
        if text.is_null() {
            return Err(Fail::fetch(self.py));
        }
        // SAFETY: `text` is a new str, owned by `_text`.
        let _text = unsafe { Hold::owned(text) };
        // SAFETY: `text` is live (held).
        match unsafe { utf8_of(text) } {
            // `str(Decimal)` spells the non-finite values "Infinity",
            // "-Infinity", "NaN", "-NaN", "sNaN" and "-sNaN".
            Some(t) if t.ends_with("Infinity") => {
                self.w.f64(if t.starts_with('-') { f64::NEG_INFINITY } else { f64::INFINITY }).map_err(Fail::core)
            }
            Some(t) if t.ends_with("NaN") => self.w.f64(f64::NAN).map_err(Fail::core),
            Some(t) => self.w.number_text(t).map_err(Fail::core),
            None => Err(Fail::fetch(self.py)),
        }
    }

    /// An `Enum` member as its `value` (a detour: the value may be a
    /// member again, or lead back to this one).
    fn enum_value(&mut self, obj: *mut PyObject) -> Walk {
        if self.detours >= MAX_DETOURS {
            return Err(Fail::msg(format!(
                "Enum values and default results nested {MAX_DETOURS} levels deep: does a value lead back to itself? (last type: {})",
                type_name(obj)
            )));
        }
        // A member whose class keeps Enum's own `value` is written from its
        // `_value_`, read from its dict without calling the property.
        // SAFETY: `obj` is live (held); the dict is a new reference we
        // release, the value borrowed from it is held while written.
        unsafe {
            let ty = ffi::Py_TYPE(obj);
            if !self.known.enum_value.is_null() && super::types::inherits_exactly(ty, self.known.enum_value, self.known.value.as_ptr()) {
                let dict = ffi::PyObject_GenericGetDict(obj, std::ptr::null_mut());
                if dict.is_null() {
                    return Err(Fail::fetch(self.py));
                }
                let value = ffi::PyDict_GetItemWithError(dict, self.known.value_attr.as_ptr());
                if !value.is_null() {
                    let _value = Hold::new(value);
                    ffi::Py_DECREF(dict);
                    return self.detour(value);
                }
                ffi::Py_DECREF(dict);
                ffi::PyErr_Clear();
            }
        }
        let value = self.get_attr(obj, self.known.value.as_ptr())?;
        // SAFETY: a new reference, owned by `_value`.
        let _value = unsafe { Hold::owned(value) };
        self.detour(value)
    }

    /// Writes `value` (held by the caller), which stands for the object
    /// being written, counted against `MAX_DETOURS`.
    fn detour(&mut self, value: *mut PyObject) -> Walk {
        self.detours += 1;
        // SAFETY: `value` is live, held by the caller while it is written.
        let r = unsafe { self.element(value) };
        self.detours -= 1;
        r
    }

    /// A dataclass instance as an object of its fields, in declaration order
    /// (Go struct order) unless the style sorts records. Its class gets a
    /// plan, kept on the class, so the next instance goes straight to `record`.
    fn dataclass(&mut self, obj: *mut PyObject) -> Walk {
        // SAFETY: `obj` is live (held by the caller), so its type is a live
        // type object, held by `obj` while the plan is made.
        let class = unsafe { Bound::from_borrowed_ptr(self.py, ffi::Py_TYPE(obj) as *mut PyObject) };
        // SAFETY: the object is a type (it is `type(obj)`).
        let class = unsafe { class.cast_into_unchecked::<PyType>() };
        let plan = dataclass::make(&class, self.known.ints_311, self.known.direct_dicts).map_err(Fail::py)?;
        self.record(obj, &plan)
    }

    /// An instance of the dataclass whose plan is `plan` (held while the
    /// instance is written): each field read with `getattr`, written after
    /// its encoded name.
    fn record(&mut self, obj: *mut PyObject, plan: &dataclass::Held) -> Walk {
        self.enter()?;
        let tag = Tag { by: self.struct_order, set: self.w.style().escaper.set() };
        let fields = plan.plan();
        // Field names are strs with text (`make` read them as such).
        let Some(shape) = fields.shape(tag, self.w) else {
            return Err(Fail::msg("a dataclass field name has no UTF-8 text"));
        };
        let n = shape.len();
        self.w.begin_object();
        let mut first = true;
        // The class's tag member (how tagged unions are told apart): first
        // in declaration order, else where its name sorts among the fields'.
        let tag_at = match &fields.tag {
            None => usize::MAX,
            Some((name, _)) => match tag.by {
                KeyOrder::Insertion => 0,
                KeyOrder::Utf8 => (0..n).find(|&p| fields.json[shape.order[p] as usize].as_bytes() > name.as_bytes()).unwrap_or(n),
                KeyOrder::Utf16 => (0..n)
                    .find(|&p| jetjson::compare_utf16(fields.json[shape.order[p] as usize].as_bytes(), name.as_bytes()).is_gt())
                    .unwrap_or(n),
            },
        };
        for pos in 0..=n {
            if pos == tag_at {
                if let Some((name, value)) = &fields.tag {
                    self.w.key(name, first).map_err(Fail::core)?;
                    first = false;
                    // SAFETY: the value is held by the plan, which `plan` holds.
                    unsafe { self.element(value.as_ptr()) }.map_err(|e| e.in_key(name))?;
                }
            }
            if pos == n {
                break;
            }
            let idx = shape.order[pos] as usize;
            // In place where the plan allows, else through getattr (either
            // way a new reference). Only the inline read runs no Python
            // code: the others, after a check of the stack (a record found
            // by `find_recent` has had none).
            // SAFETY: `obj` is live (held by the caller).
            let mut value = unsafe { fields.read_in_place(obj, idx) };
            if value.is_null() {
                self.before_python()?;
                // SAFETY: as above.
                value = match unsafe { fields.read_any(obj, idx) } {
                    Ok(v) => v,
                    Err(()) => return Err(Fail::fetch(self.py).in_key(&fields.json[idx])),
                };
                if value.is_null() {
                    value = self.get_attr(obj, shape.key(idx)).map_err(|e| e.in_key(&fields.json[idx]))?;
                }
            }
            // SAFETY: the new reference just made, owned by `_value` (released
            // when the member is done, on every way out).
            let _value = unsafe { Hold::owned(value) };
            if self.omit_defaults {
                self.before_python()?;
                // SAFETY: `value` is held; comparing may run Python code.
                let default = unsafe { fields.is_default(self.py, idx, value) };
                if !matches!(default, Ok(false)) {
                    match default {
                        Err(e) => return Err(Fail::py(e).in_key(&fields.json[idx])),
                        _ => continue,
                    }
                }
            }
            let (names, at, len) = shape.name(pos);
            self.w.encoded_key(names, at, len, first);
            first = false;
            // SAFETY: `value` is a new reference we own while it is written.
            unsafe { self.element(value) }.map_err(|e| e.in_key(&fields.json[idx]))?;
        }
        self.w.end_object(first);
        Ok(())
    }

    /// The text a dict key that is not a str is written as (`non_str_keys`),
    /// as a new str: what the profile writes for the same value, without
    /// quotes (an int's digits, a float's profile layout, `true`, `false`,
    /// `null`, a date's ISO text, a UUID's canonical form, a Decimal's
    /// text), an Enum member's value's text; anything else is an error.
    pub(super) fn key_text(&mut self, k: *mut PyObject) -> Result<*mut PyObject, Fail> {
        self.key_text_depth(k, 0)
    }

    fn key_text_depth(&mut self, k: *mut PyObject, depth: u32) -> Result<*mut PyObject, Fail> {
        let known = self.known;
        let py = self.py;
        let new_str = |text: &str| -> Result<*mut PyObject, Fail> {
            // SAFETY: a new str from UTF-8 text.
            let s = unsafe { ffi::PyUnicode_FromStringAndSize(text.as_ptr() as *const _, text.len() as ffi::Py_ssize_t) };
            if s.is_null() {
                return Err(Fail::fetch(py));
            }
            Ok(s)
        };
        // SAFETY: `k` is live (held by the caller); types are compared or
        // checked before each object is read as one.
        unsafe {
            if ffi::PyUnicode_Check(k) != 0 {
                ffi::Py_INCREF(k);
                return Ok(k);
            }
            if k == ffi::Py_None() {
                return new_str("null");
            }
            if ffi::PyBool_Check(k) != 0 {
                return new_str(if k == ffi::Py_True() { "true" } else { "false" });
            }
            let is = |t: &Py<PyType>| ffi::PyObject_TypeCheck(k, t.as_ptr() as *mut ffi::PyTypeObject) != 0;
            if is(&known.enum_base) && depth == 0 {
                let value = self.get_attr(k, known.value.as_ptr())?;
                let r = self.key_text_depth(value, 1);
                ffi::Py_DECREF(value);
                return r;
            }
            if ffi::PyLong_Check(k) != 0 {
                let s = ffi::PyNumber_ToBase(k, 10);
                return if s.is_null() { Err(super::walk::int_text_failed(self.py, k)) } else { Ok(s) };
            }
            if ffi::PyFloat_Check(k) != 0 {
                let v = ffi::PyFloat_AS_DOUBLE(k);
                if !v.is_finite() {
                    return Err(Fail::msg(format!("a float dict key {v} cannot be written (NaN and infinities have no JSON text)")));
                }
                let mut text = Vec::with_capacity(32);
                jetjson::number::write_f64(&mut text, v, self.w.style().float_layout);
                return new_str(std::str::from_utf8(&text).unwrap_or("0"));
            }
            // Dates and times as `moment` writes them (a subclass with its
            // own isoformat through it).
            for (t, kind) in [(&known.datetime, time::Kind::DateTime), (&known.date, time::Kind::Date), (&known.time, time::Kind::Time)] {
                if is(t) {
                    return match self.moment_key(k, kind, t.as_ptr() as *mut ffi::PyTypeObject)? {
                        // `layout` writes ASCII only.
                        Some((buf, n)) => new_str(std::str::from_utf8_unchecked(&buf[..n])),
                        None => {
                            let s = self.call_method0(k, known.isoformat.as_ptr())?;
                            if ffi::PyUnicode_Check(s) == 0 {
                                ffi::Py_DECREF(s);
                                return Err(Fail::msg("isoformat() did not return a str"));
                            }
                            // In `go`, Go's layout of it, as `iso` writes a
                            // value (keys were written as returned).
                            let _s = Hold::owned(s);
                            match utf8_of(s) {
                                Some(iso) => match self.iso_layout(k, kind, iso)? {
                                    std::borrow::Cow::Owned(text) => new_str(&text),
                                    std::borrow::Cow::Borrowed(_) => {
                                        ffi::Py_INCREF(s);
                                        Ok(s)
                                    }
                                },
                                None if self.w.style().profile == jetjson::Profile::Go && kind == time::Kind::DateTime => {
                                    Err(Fail::msg("isoformat() did not return a str with text"))
                                }
                                None => {
                                    ffi::Py_INCREF(s);
                                    Ok(s)
                                }
                            }
                        }
                    };
                }
            }
            if is(&known.uuid) {
                if let Some(text) = uuid_from_int(
                    if ffi::Py_TYPE(k) == known.uuid.as_ptr() as *mut ffi::PyTypeObject && known.uuid_int_offset != 0 {
                        *((k as *mut u8).offset(known.uuid_int_offset) as *mut *mut PyObject)
                    } else {
                        std::ptr::null_mut()
                    },
                    known.ints_311,
                ) {
                    return new_str(std::str::from_utf8_unchecked(&text));
                }
                let s = ffi::PyObject_Str(k);
                return if s.is_null() { Err(Fail::fetch(self.py)) } else { Ok(s) };
            }
            if is(&known.decimal) {
                let s = ffi::PyObject_Str(k);
                if s.is_null() {
                    return Err(Fail::fetch(self.py));
                }
                if utf8_of(s).is_some_and(|t| t.ends_with("NaN") || t.ends_with("Infinity")) {
                    ffi::Py_DECREF(s);
                    return Err(Fail::msg("a NaN or infinite Decimal dict key cannot be written"));
                }
                return Ok(s);
            }
            Err(Fail::msg(format!(
                "dict keys must be str, int, float, bool, None, an Enum, a UUID, a date or a Decimal with non_str_keys=True, not {}",
                type_name(k)
            )))
        }
    }

    /// Hands `obj` to `default` and writes what it returns; without
    /// `default`, or after too long a chain of `default` results, it is an error.
    fn call_default(&mut self, obj: *mut PyObject) -> Walk {
        let Some(default) = self.default else {
            return Err(unsupported(obj, self.w.style().profile));
        };
        if self.detours >= MAX_DETOURS {
            return Err(Fail::msg(format!(
                "default called {MAX_DETOURS} levels deep: its results keep needing default (last type: {})",
                type_name(obj)
            )));
        }
        // SAFETY: `default` is a live callable held by the caller of dumps;
        // `obj` is live and held.
        let result = unsafe { ffi::PyObject_CallOneArg(default, obj) };
        if result.is_null() {
            return Err(Fail::fetch(self.py));
        }
        // SAFETY: `result` is a new reference, owned by `_result`.
        let _result = unsafe { Hold::owned(result) };
        self.detours += 1;
        // SAFETY: `result` is live (held) while it is written.
        let r = unsafe { self.element(result) };
        self.detours -= 1;
        r
    }

    fn call_method0(&self, obj: *mut PyObject, name: *mut PyObject) -> Result<*mut PyObject, Fail> {
        // SAFETY: `obj` is live and `name` an interned str.
        let r = unsafe { ffi::PyObject_CallMethodNoArgs(obj, name) };
        if r.is_null() {
            return Err(Fail::fetch(self.py));
        }
        Ok(r)
    }

    fn get_attr(&self, obj: *mut PyObject, name: *mut PyObject) -> Result<*mut PyObject, Fail> {
        // SAFETY: `obj` is live and `name` a str.
        let r = unsafe { ffi::PyObject_GetAttr(obj, name) };
        if r.is_null() {
            return Err(Fail::fetch(self.py));
        }
        Ok(r)
    }
}

fn type_name(obj: *mut PyObject) -> String {
    // SAFETY: `obj` is live; tp_name is a NUL-terminated C string of its type.
    unsafe { std::ffi::CStr::from_ptr((*ffi::Py_TYPE(obj)).tp_name).to_string_lossy().into_owned() }
}

#[cold]
fn unsupported(obj: *mut PyObject, profile: jetjson::Profile) -> Fail {
    let name = type_name(obj);
    // SAFETY: `obj` is live.
    if unsafe { ffi::PyBytes_Check(obj) } != 0 {
        return Fail::core(Error::new(ErrorKind::Unsupported {
            what: format!(
                "{name} is not supported in profile \"{}\" (only \"go\" writes bytes, as base64); pass default= to convert it",
                profile.name()
            ),
        }));
    }
    Fail::msg(format!("Type is not JSON serializable: {name} (pass default= to convert it)"))
}

/// The 8-4-4-4-12 form of 32 ASCII hex digits; `None` for anything else.
fn uuid_text(hex: &[u8]) -> Option<[u8; 36]> {
    if hex.len() != 32 || !hex.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let mut out = [b'-'; 36];
    let mut at = 0;
    for (i, &c) in hex.iter().enumerate() {
        if matches!(i, 8 | 12 | 16 | 20) {
            at += 1;
        }
        out[at] = c;
        at += 1;
    }
    Some(out)
}

/// The 8-4-4-4-12 lowercase form of a UUID's 128-bit int; `None` unless
/// `int` is an exact int in [0, 2^128) (the caller then asks `.hex`).
/// `ints_311`: the interpreter has CPython 3.11's int layout
/// (`Known::ints_311`), whose digits are read in place.
///
/// # Safety
/// `int` is null or a live object; GIL held.
unsafe fn uuid_from_int(int: *mut PyObject, ints_311: bool) -> Option<[u8; 36]> {
    // SAFETY: read as an int only when it is an exact one; sized before it
    // is converted, so the conversion cannot fail (no exception is made).
    unsafe {
        if int.is_null() || ffi::PyLong_CheckExact(int) == 0 {
            return None;
        }
        let value = if ints_311 {
            u128_of_int_311(int)?
        } else {
            // The sign through the API (from CPython 3.12 on, an int's
            // `ob_size` is no signed digit count): a negative int is left
            // to `.hex` (an exact int's comparison runs no Python code).
            let zero = ffi::PyLong_FromLong(0);
            if zero.is_null() {
                ffi::PyErr_Clear();
                return None;
            }
            let negative = ffi::PyObject_RichCompareBool(int, zero, ffi::Py_LT);
            ffi::Py_DECREF(zero);
            if negative != 0 {
                if negative < 0 {
                    ffi::PyErr_Clear();
                }
                return None;
            }
            if super::walk::long_bits(int) > 128 {
                return None;
            }
            // Its low and high 64 bits through the public API (every
            // version: `_PyLong_AsByteArray` changed in 3.13): a mask never
            // fails for an int, and the shift makes a new int, released here.
            let low = ffi::PyLong_AsUnsignedLongLongMask(int);
            let shift = ffi::PyLong_FromLong(64);
            if shift.is_null() {
                ffi::PyErr_Clear();
                return None;
            }
            let high_int = ffi::PyNumber_Rshift(int, shift);
            ffi::Py_DECREF(shift);
            if high_int.is_null() {
                ffi::PyErr_Clear();
                return None;
            }
            let high = ffi::PyLong_AsUnsignedLongLongMask(high_int);
            ffi::Py_DECREF(high_int);
            (u128::from(high) << 64) | u128::from(low)
        };
        Some(uuid_text_of(value))
    }
}

/// The value of a non-negative int below 2^128, read from CPython 3.11's
/// layout (`ob_size` = signed digit count, then 30-bit digits, least
/// significant first); `None` for negative or wider ints.
///
/// # Safety
/// `int` is a live int on CPython 3.11.
#[inline]
unsafe fn u128_of_int_311(int: *mut PyObject) -> Option<u128> {
    // SAFETY: a 3.11 int is a PyVarObject followed by |ob_size| u32 digits;
    // only digits below ob_size (checked to be 0..=5) are read.
    unsafe {
        let size = ffi::Py_SIZE(int);
        if !(0..=5).contains(&size) {
            return None;
        }
        let digits = (int as *const u8).add(std::mem::size_of::<ffi::PyVarObject>()) as *const u32;
        let mut v: u128 = 0;
        for k in (0..size as usize).rev() {
            let d = *digits.add(k);
            // Five digits hold 150 bits: the top one may use 8 of its 30.
            if k == 4 && d >> 8 != 0 {
                return None;
            }
            v = v << 30 | u128::from(d);
        }
        Some(v)
    }
}

/// The eight nibbles of `v` as eight bytes of 0..=15, most significant
/// first in memory (the bytes of the little-endian result).
#[inline(always)]
fn spread_nibbles(v: u32) -> u64 {
    let mut x = u64::from(v);
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte k now holds nibble k (least significant first).
    x.swap_bytes()
}

/// Eight lowercase hex digits of `v`, most significant first: the
/// nibbles spread into bytes and turned into ASCII in one register
/// (`'0' + n`, plus `'a' - '0' - 10` where `n > 9`), stored whole.
#[inline(always)]
fn hex8(v: u32) -> [u8; 8] {
    let n = spread_nibbles(v);
    // 0x01 in each byte whose nibble is above 9 (n + 6 carries into bit 4).
    let letters = ((n + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
    (n + 0x3030_3030_3030_3030 + letters * u64::from(b'a' - b'0' - 10)).to_le_bytes()
}

/// `v` as a UUID's text: 32 lowercase hex digits, most significant first,
/// grouped 8-4-4-4-12 by dashes. Built eight digits at a time in
/// registers: a table lookup and two byte stores per byte made the text
/// byte by byte, and the writer's wide loads of it then waited on those
/// narrow stores.
#[inline]
fn uuid_text_of(v: u128) -> [u8; 36] {
    let [a, b, c, d] = [(v >> 96) as u32, (v >> 64) as u32, (v >> 32) as u32, v as u32].map(hex8);
    let mut out = [b'-'; 36];
    out[0..8].copy_from_slice(&a);
    out[9..13].copy_from_slice(&b[..4]);
    out[14..18].copy_from_slice(&b[4..]);
    out[19..23].copy_from_slice(&c[..4]);
    out[24..28].copy_from_slice(&c[4..]);
    out[28..36].copy_from_slice(&d);
    out
}

/// Whether `ty` iterates with `base`'s iteration slot (addresses only): a
/// subclass with its own `__iter__` does not.
///
/// # Safety
/// `ty` and `base` are live types; GIL held.
unsafe fn iterates_as(ty: *mut ffi::PyTypeObject, base: *mut ffi::PyTypeObject) -> bool {
    // SAFETY: as the caller guarantees; the slots are only compared.
    unsafe { (*ty).tp_iter.map(|f| f as usize) == (*base).tp_iter.map(|f| f as usize) }
}

/// Whether the plain dicts `a` and `b` hold the same key and value objects
/// in the same order.
///
/// # Safety
/// `a` and `b` are live plain dicts that no Python code changes meanwhile.
unsafe fn same_items(a: *mut PyObject, b: *mut PyObject) -> bool {
    // SAFETY: as the caller promises; `PyDict_Next` lends its items.
    unsafe {
        if ffi::PyDict_Size(a) != ffi::PyDict_Size(b) {
            return false;
        }
        let (mut i, mut j) = (0, 0);
        let (mut ka, mut va, mut kb, mut vb) = (std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut());
        while ffi::PyDict_Next(a, &mut i, &mut ka, &mut va) != 0 {
            if ffi::PyDict_Next(b, &mut j, &mut kb, &mut vb) == 0 || va != vb {
                return false;
            }
            // The values are the table's objects; the keys are what the
            // subclass's `__iter__` gave, which may be new objects of the
            // same text on every call (compared as text, no Python code).
            if ka != kb
                && !(ffi::PyUnicode_CheckExact(ka) != 0 && ffi::PyUnicode_CheckExact(kb) != 0 && ffi::PyUnicode_Compare(ka, kb) == 0)
            {
                return false;
            }
        }
        true
    }
}
