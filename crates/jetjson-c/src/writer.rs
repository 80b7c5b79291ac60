//! `jetjson_writer`: a streaming writer for building documents from C data.
//!
//! The core's `Writer` decides the bytes (the profile's escaping, numbers,
//! layout); this layer keeps the grammar the core leaves to its callers:
//! which container is open, whether a key or a value comes next, one value
//! at the top. Objects are maps or structs (the core's two key orders: `go`
//! sorts a map's keys and keeps a struct's fields in order); those whose
//! order is sorted are written in place and put in order when they end. Any error leaves the writer failed: later
//! calls return `JETJSON_ERR_STATE` and a buffer target gets its old length
//! back when the writer is freed.

use std::os::raw::{c_char, c_int, c_void};

use jetjson::{KeyOrder, RawJson, SortedObject, Writer};

use crate::boundary::{self, Failure, Outcome};
use crate::buffer::Out;
use crate::options::write_options;
use crate::sink::{failure_of, CSink, Target};
use crate::types::{Buffer, Error, Status, WriteFn, WriteOptions};

/// An open container.
enum Frame {
    Array { first: bool },
    Object { first: bool, want_key: bool },
    Sorted { obj: SortedObject, want_key: bool, order: KeyOrder },
}

enum State {
    Open,
    /// The message of the error that ended the writer.
    Failed(String),
    Finished,
}

/// The handle behind `jetjson_writer *`.
pub struct CWriter {
    w: Option<Writer<CSink>>,
    spill: std::rc::Rc<std::cell::Cell<Option<Failure>>>,
    frames: Vec<Frame>,
    /// The top-level value is complete.
    done: bool,
    /// Order of objects (maps): the profile's, or the option's.
    map_order: KeyOrder,
    /// Order of structs (declared fields): the profile's, or the option's.
    struct_order: KeyOrder,
    /// Raw JSON is checked here first (`compact`, which copies it, or lays
    /// it out accepting repeated names).
    checks_raw: bool,
    state: State,
    /// Inside a call: still set on entry if a call panicked (the panic was
    /// caught at the boundary, the writer may be half-way through a token).
    busy: bool,
    /// A buffer target and its length when the writer was made (restored
    /// unless the writer finishes).
    restore: Option<(Out, usize)>,
}

impl CWriter {
    fn new(options: &jetjson::WriteOptions, target: Target) -> CWriter {
        let restore = match &target {
            Target::Buffer(out) => Some((*out, out.len())),
            Target::Callback { .. } => None,
        };
        let style = options.style();
        let sink = CSink::new(target);
        let spill = sink.failure.clone();
        CWriter {
            w: Some(Writer::with_sink(options, sink)),
            spill,
            frames: Vec::new(),
            done: false,
            map_order: style.map_order,
            struct_order: style.struct_order,
            checks_raw: style.profile == jetjson::Profile::Compact,
            state: State::Open,
            busy: false,
            restore,
        }
    }

    /// Runs one call: refused unless the writer is open; any failure ends it.
    fn call(&mut self, f: impl FnOnce(&mut CWriter) -> Outcome) -> Outcome {
        match &self.state {
            State::Open => {}
            State::Failed(msg) => return Err(Failure::state(format!("the writer failed earlier ({msg})"))),
            State::Finished => return Err(Failure::state("the writer has finished")),
        }
        if self.busy {
            // A call while another on this writer runs: from the writer's
            // own write callback (which jetjson.h forbids), or after a panic
            // left the writer half-way through a token.
            let msg = "a call on this writer while another was running (from its write callback?) or after an internal error";
            self.state = State::Failed(msg.into());
            return Err(Failure::state(msg));
        }
        self.busy = true;
        let r = f(self);
        self.busy = false;
        match (&r, &self.state) {
            (Err(failure), _) => self.state = State::Failed(failure.message.clone()),
            // A call from the callback failed the writer during this call:
            // this call fails too (its output may be cut short).
            (Ok(()), State::Failed(msg)) => return Err(Failure::state(format!("the writer failed during this call ({msg})"))),
            _ => {}
        }
        r
    }

    fn writer(&mut self) -> &mut Writer<CSink> {
        self.w.as_mut().expect("an open writer has its core writer")
    }

    fn core(&self, e: jetjson::Error) -> Failure {
        failure_of(&e, &self.spill)
    }

    /// Before a value: its separator, or a refusal where no value belongs.
    fn value_slot(&mut self) -> Outcome {
        match self.frames.last_mut() {
            None if self.done => Err(Failure::state("the document is complete (one top-level value only)")),
            None => Ok(()),
            Some(Frame::Array { first }) => {
                let was_first = *first;
                *first = false;
                self.writer().array_item(was_first);
                Ok(())
            }
            Some(Frame::Object { want_key: true, .. } | Frame::Sorted { want_key: true, .. }) => {
                Err(Failure::state("a value in an object needs its key first (jetjson_writer_key)"))
            }
            Some(_) => Ok(()),
        }
    }

    /// After a value: the member is complete, or the document is.
    fn value_done(&mut self) -> Outcome {
        let w = self.w.as_mut().expect("an open writer has its core writer");
        match self.frames.last_mut() {
            None => self.done = true,
            Some(Frame::Object { want_key, .. }) => *want_key = true,
            Some(Frame::Sorted { obj, want_key, .. }) => {
                w.sorted_value_done(obj);
                *want_key = true;
            }
            Some(Frame::Array { .. }) => {}
        }
        self.spill()
    }

    /// The options' `max_write_depth`: one more container would go past it
    /// (`JETJSON_ERR_LIMIT`, which ends the writer as any error does).
    fn check_nesting(&mut self) -> Outcome {
        let r = self.writer().check_nesting();
        r.map_err(|e| self.core(e))
    }

    /// A scalar: its slot, its bytes, then the bookkeeping after a value.
    fn scalar(&mut self, write: impl FnOnce(&mut Writer<CSink>) -> jetjson::Result<()>) -> Outcome {
        self.value_slot()?;
        let r = write(self.writer());
        r.map_err(|e| self.core(e))?;
        self.value_done()
    }

    /// An object whose members go in `order` (a map's or a struct's).
    fn begin_object(&mut self, order: KeyOrder) -> Outcome {
        self.value_slot()?;
        self.check_nesting()?;
        let frame = if order == KeyOrder::Insertion {
            self.writer().begin_object();
            Frame::Object { first: true, want_key: true }
        } else {
            Frame::Sorted { obj: self.writer().begin_sorted_object(), want_key: true, order }
        };
        self.frames.push(frame);
        self.spill()
    }

    /// Hands buffered output to a callback once enough is held (after a
    /// value, and after an opening bracket or a key: a run of them, each
    /// with its indentation, is not held whole).
    fn spill(&mut self) -> Outcome {
        let w = self.w.as_mut().expect("an open writer has its core writer");
        w.spill_if_full().map_err(|e| failure_of(&e, &self.spill))
    }

    fn end_object(&mut self) -> Outcome {
        match self.frames.last() {
            Some(Frame::Object { want_key: true, .. } | Frame::Sorted { want_key: true, .. }) => {}
            Some(Frame::Object { .. } | Frame::Sorted { .. }) => {
                return Err(Failure::state("end_object after a key: the key's value is missing"))
            }
            Some(Frame::Array { .. }) => return Err(Failure::state("end_object inside an array (end_array closes it)")),
            None => return Err(Failure::state("end_object with no object open")),
        }
        match self.frames.pop() {
            Some(Frame::Object { first, .. }) => self.writer().end_object(first),
            Some(Frame::Sorted { obj, order, .. }) => {
                let r = self.writer().end_sorted_object(obj, order);
                r.map_err(|e| self.core(e))?;
            }
            _ => unreachable!("checked above"),
        }
        self.value_done()
    }

    fn begin_array(&mut self) -> Outcome {
        self.value_slot()?;
        self.check_nesting()?;
        self.writer().begin_array();
        self.frames.push(Frame::Array { first: true });
        self.spill()
    }

    fn end_array(&mut self) -> Outcome {
        let Some(Frame::Array { first }) = self.frames.last() else {
            return Err(Failure::state(if self.frames.is_empty() {
                "end_array with no array open"
            } else {
                "end_array inside an object (end_object closes it)"
            }));
        };
        let empty = *first;
        self.frames.pop();
        self.writer().end_array(empty);
        self.value_done()
    }

    fn key(&mut self, key: &[u8]) -> Outcome {
        let w = self.w.as_mut().expect("an open writer has its core writer");
        let r = match self.frames.last_mut() {
            Some(Frame::Object { first, want_key: want @ true }) => {
                let was_first = *first;
                *first = false;
                *want = false;
                match std::str::from_utf8(key) {
                    Ok(k) => w.key(k, was_first),
                    Err(_) => w.bytes_key(key, was_first),
                }
            }
            Some(Frame::Sorted { obj, want_key: want @ true, .. }) => {
                *want = false;
                match std::str::from_utf8(key) {
                    Ok(k) => w.sorted_key(obj, k),
                    Err(_) => w.sorted_bytes_key(obj, key),
                }
            }
            Some(Frame::Object { .. } | Frame::Sorted { .. }) => {
                return Err(Failure::state("two keys in a row: the first key's value is missing"))
            }
            Some(Frame::Array { .. }) => return Err(Failure::state("a key inside an array")),
            None => return Err(Failure::state("a key outside any object")),
        };
        r.map_err(|e| self.core(e))?;
        self.spill()
    }

    fn string(&mut self, s: &[u8]) -> Outcome {
        self.scalar(|w| match std::str::from_utf8(s) {
            Ok(text) => w.str(text),
            Err(_) => w.bytes_str(s),
        })
    }

    fn raw(&mut self, json: &[u8]) -> Outcome {
        if self.checks_raw {
            // `compact` copies raw JSON as it is (or lays it out accepting
            // repeated names, as `go`): check it first, names repeated
            // included (go compacts it and jcs parses it, which check it themselves),
            // its nesting under the room left below `max_write_depth`, as
            // `jcs` reads it (not the read default of 512, which a raised
            // write limit could not lift); deeper is the write limit's error.
            let (limit, room) = match &self.w {
                Some(w) => (w.style().max_write_depth, w.style().max_write_depth.saturating_sub(w.depth())),
                None => (jetjson::DEFAULT_MAX_WRITE_DEPTH, jetjson::DEFAULT_MAX_WRITE_DEPTH),
            };
            match RawJson::from_slice_with(json, &jetjson::ReadOptions::new().max_depth(room)) {
                Ok(_) => {}
                Err(e) if matches!(e.kind(), jetjson::ErrorKind::DepthLimit { .. }) => {
                    return Err(Failure::new(crate::types::ERR_LIMIT, format!("nesting deeper than max_write_depth {limit}")));
                }
                Err(e) => return Err(Failure::from_core(&e)),
            }
        }
        self.scalar(|w| w.raw(json))
    }

    fn finish(&mut self) -> Outcome {
        if !self.frames.is_empty() {
            return Err(Failure::state(format!("finish with {} container(s) still open", self.frames.len())));
        }
        if !self.done {
            return Err(Failure::state("finish before any value was written"));
        }
        let w = self.w.take().expect("an open writer has its core writer");
        w.finish().map_err(|e| failure_of(&e, &self.spill))?;
        self.state = State::Finished;
        self.restore = None;
        Ok(())
    }
}

impl Drop for CWriter {
    fn drop(&mut self) {
        if let Some((mut out, len)) = self.restore.take() {
            // The core writer may still spill nothing more: drop it first.
            self.w = None;
            out.truncate(len);
        }
    }
}

/// Makes a writer and stores it in `*writer` (NULL on failure).
///
/// # Safety
/// `writer` is valid for writes; `options` NULL or readable.
unsafe fn make(options: *const WriteOptions, target: impl FnOnce() -> Result<Target, Failure>, writer: *mut *mut CWriter) -> Outcome {
    let writer = boundary::required(writer, "writer")?;
    // SAFETY: `writer` is writable (caller).
    unsafe { *writer = std::ptr::null_mut() };
    // SAFETY: forwarded contract on `options`.
    let options = unsafe { write_options(options)? };
    let handle = Box::new(CWriter::new(&options, target()?));
    // SAFETY: as above.
    unsafe { *writer = Box::into_raw(handle) };
    Ok(())
}

/// `jetjson_writer_new`.
///
/// # Safety
/// See `jetjson.h`.
#[no_mangle]
pub unsafe extern "C" fn jetjson_writer_new(
    options: *const WriteOptions,
    out: *mut Buffer,
    writer: *mut *mut CWriter,
    err: *mut Error,
) -> Status {
    // SAFETY: the caller's contract (jetjson.h), forwarded to each helper.
    unsafe { boundary::run(err, || make(options, || Ok(Target::Buffer(Out::new(out, "out")?)), writer)) }
}

/// `jetjson_writer_new_callback`.
///
/// # Safety
/// See `jetjson.h`.
#[no_mangle]
pub unsafe extern "C" fn jetjson_writer_new_callback(
    options: *const WriteOptions,
    write: WriteFn,
    user: *mut c_void,
    writer: *mut *mut CWriter,
    err: *mut Error,
) -> Status {
    let target = || match write {
        Some(write) => Ok(Target::Callback { write, user }),
        None => Err(Failure::argument("write is NULL")),
    };
    // SAFETY: the caller's contract (jetjson.h), forwarded to each helper.
    unsafe { boundary::run(err, || make(options, target, writer)) }
}

/// `jetjson_writer_free`.
///
/// # Safety
/// See `jetjson.h`: `writer` is NULL or from `jetjson_writer_new*`, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn jetjson_writer_free(writer: *mut CWriter) {
    if writer.is_null() {
        return;
    }
    // Dropping runs no callback and cannot panic in practice; should it,
    // the panic stays on this side.
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: made by `Box::into_raw` in `make`, freed only here (caller).
        drop(unsafe { Box::from_raw(writer) });
    }));
}

/// One writer call at the boundary: a NULL writer is an argument error.
///
/// # Safety
/// `writer` is NULL or a live writer; `err` NULL or writable.
unsafe fn with_writer(writer: *mut CWriter, err: *mut Error, f: impl FnOnce(&mut CWriter) -> Outcome) -> Status {
    // SAFETY: the caller's contract, forwarded.
    unsafe {
        boundary::run(err, || {
            let w = boundary::required(writer, "writer")?;
            // SAFETY: a live writer, used by one thread at a time (jetjson.h).
            (*w).call(f)
        })
    }
}

macro_rules! writer_fn {
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) => |$w:ident| $body:expr) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// See `jetjson.h`.
        #[no_mangle]
        pub unsafe extern "C" fn $name(writer: *mut CWriter, $($arg: $ty,)* err: *mut Error) -> Status {
            let call = |$w: &mut CWriter| -> Outcome { $body };
            // SAFETY: the caller's contract (jetjson.h), forwarded.
            unsafe { with_writer(writer, err, call) }
        }
    };
}

writer_fn!(
    /// `jetjson_writer_begin_object`.
    jetjson_writer_begin_object() => |w| w.begin_object(w.map_order)
);
writer_fn!(
    /// `jetjson_writer_begin_struct`.
    jetjson_writer_begin_struct() => |w| w.begin_object(w.struct_order)
);
writer_fn!(
    /// `jetjson_writer_end_object`.
    jetjson_writer_end_object() => |w| w.end_object()
);
writer_fn!(
    /// `jetjson_writer_begin_array`.
    jetjson_writer_begin_array() => |w| w.begin_array()
);
writer_fn!(
    /// `jetjson_writer_end_array`.
    jetjson_writer_end_array() => |w| w.end_array()
);
writer_fn!(
    /// `jetjson_writer_key`.
    jetjson_writer_key(s: *const c_char, len: usize) => |w| {
        // SAFETY: `s` readable for `len` bytes (caller).
        let key = unsafe { boundary::text(s, len, "key")? };
        w.key(key)
    }
);
writer_fn!(
    /// `jetjson_writer_string`.
    jetjson_writer_string(s: *const c_char, len: usize) => |w| {
        // SAFETY: `s` readable for `len` bytes (caller).
        let s = unsafe { boundary::text(s, len, "s")? };
        w.string(s)
    }
);
writer_fn!(
    /// `jetjson_writer_i64`.
    jetjson_writer_i64(v: i64) => |w| w.scalar(|c| c.i64(v))
);
writer_fn!(
    /// `jetjson_writer_u64`.
    jetjson_writer_u64(v: u64) => |w| w.scalar(|c| c.u64(v))
);
writer_fn!(
    /// `jetjson_writer_double`.
    jetjson_writer_double(v: f64) => |w| w.scalar(|c| c.f64(v))
);
writer_fn!(
    /// `jetjson_writer_bool`.
    jetjson_writer_bool(v: c_int) => |w| w.scalar(|c| {
        c.bool(v != 0);
        Ok(())
    })
);
writer_fn!(
    /// `jetjson_writer_null`.
    jetjson_writer_null() => |w| w.scalar(|c| {
        c.null();
        Ok(())
    })
);
writer_fn!(
    /// `jetjson_writer_raw`.
    jetjson_writer_raw(json: *const u8, len: usize) => |w| {
        // SAFETY: `json` readable for `len` bytes (caller).
        let json = unsafe { boundary::input(json, len, "json")? };
        w.raw(json)
    }
);
writer_fn!(
    /// `jetjson_writer_finish`.
    jetjson_writer_finish() => |w| w.finish()
);
