//! Where a writer's output goes: appended to the caller's `jetjson_buffer`,
//! or handed to the caller's write callback, in the chunks the core's
//! `Writer` spills (about 32 KiB).

use std::cell::Cell;
use std::os::raw::{c_int, c_void};
use std::rc::Rc;

use jetjson::{ErrorKind, Sink};

use crate::boundary::Failure;
use crate::buffer::Out;
use crate::types;

pub(crate) enum Target {
    Buffer(Out),
    Callback { write: unsafe extern "C" fn(*mut c_void, *const u8, usize) -> c_int, user: *mut c_void },
}

pub(crate) struct CSink {
    pub target: Target,
    /// Why the last spill failed: the core only carries an `Io` message
    /// through its `Result`, this keeps the status and text for the caller.
    pub failure: Rc<Cell<Option<Failure>>>,
}

impl CSink {
    pub fn new(target: Target) -> CSink {
        CSink { target, failure: Rc::new(Cell::new(None)) }
    }
}

impl Sink for CSink {
    fn spill(&mut self, bytes: &[u8]) -> jetjson::Result<()> {
        let failure = match &mut self.target {
            Target::Buffer(out) => out.append(bytes).err(),
            Target::Callback { write, user } => {
                // SAFETY: the callback and its user pointer were given by
                // the caller for exactly this use (jetjson.h); `bytes` is
                // valid for the call.
                let r = unsafe { write(*user, bytes.as_ptr(), bytes.len()) };
                (r != 0).then(|| Failure::new(types::ERR_CALLBACK, format!("the write callback returned {r}")))
            }
        };
        match failure {
            None => Ok(()),
            Some(f) => {
                let text = f.message.clone();
                self.failure.set(Some(f));
                Err(jetjson::Error::new(ErrorKind::Io(text)))
            }
        }
    }
}

/// The failure to report for a core error from a writer over a `CSink`:
/// the sink's own when a spill failed, the core's otherwise.
pub(crate) fn failure_of(e: &jetjson::Error, spill: &Cell<Option<Failure>>) -> Failure {
    spill.take().unwrap_or_else(|| Failure::from_core(e))
}
