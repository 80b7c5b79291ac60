//! Iterating a dict's entries in place (CPython 3.11 and 3.12 layout).
//!
//! `PyDict_Next` costs a call and a few checks per member; reading the
//! entry table directly is a pointer walk, and lets us ask the CPU for the
//! next members' values early (each value is another object in memory, and
//! loading its header is the walk's main stall). The layout is private to
//! CPython, so this is used only on the versions whose layout it matches
//! (checked at run time) and only for "combined" tables (`ma_values` NULL);
//! everything else goes through `PyDict_Next`.
//!
//! Memory safety under mutation: a `default` called while a value is written
//! may resize or clear the dict. The keys object and the entry count are
//! therefore re-read from the dict (which we hold) at every step, so an index
//! is never used beyond the current table; and the walker compares the
//! dict's version tag after every member, so a changed table is an error
//! before the cursor reads on.

use pyo3::ffi::{self, PyObject};

/// `struct _dictkeysobject` up to its index table (3.11, 3.12).
#[repr(C)]
struct DictKeys {
    dk_refcnt: ffi::Py_ssize_t,
    dk_log2_size: u8,
    dk_log2_index_bytes: u8,
    dk_kind: u8,
    dk_version: u32,
    dk_usable: ffi::Py_ssize_t,
    dk_nentries: ffi::Py_ssize_t,
    // char dk_indices[]; then the entries
}

/// `PyDictObject` (3.11, 3.12).
#[repr(C)]
struct Dict {
    ob_base: ffi::PyObject,
    ma_used: ffi::Py_ssize_t,
    ma_version_tag: u64,
    ma_keys: *mut DictKeys,
    ma_values: *mut std::ffi::c_void,
}

const KIND_GENERAL: u8 = 0;
const KIND_UNICODE: u8 = 1;

/// Whether the running interpreter has the layout above (set once at import).
pub fn layout_supported(major: u32, minor: u32) -> bool {
    major == 3 && (minor == 11 || minor == 12)
}

/// The table of a combined dict: (entries base, entry size in pointers,
/// count of entries), or `None` for split tables and unknown kinds.
///
/// # Safety
/// `dict` is a live dict (or subclass) on an interpreter with this layout.
#[inline(always)]
unsafe fn table(dict: *mut PyObject) -> Option<(*const *mut PyObject, usize, usize)> {
    // SAFETY: the caller guarantees the layout; a live dict has a valid keys object.
    unsafe {
        let d = dict as *const Dict;
        if !(*d).ma_values.is_null() {
            return None;
        }
        let keys = (*d).ma_keys;
        let stride = match (*keys).dk_kind {
            KIND_UNICODE => 2, // { key, value }
            KIND_GENERAL => 3, // { hash, key, value }
            _ => return None,
        };
        let indices = (keys as *const u8).add(std::mem::size_of::<DictKeys>());
        let entries = indices.add(1usize << (*keys).dk_log2_index_bytes) as *const *mut PyObject;
        // For general entries skip the hash: key and value are the last two words.
        let entries = entries.add(stride - 2);
        Some((entries, stride, (*keys).dk_nentries as usize))
    }
}

/// The entries of a combined table whose keys are all exact `str` and
/// which has no deleted entries, so member `i` is entry `i`: (entries base,
/// member count), with member `i`'s key at `base[2 * i]` and its value at
/// `base[2 * i + 1]`. `None` for any other table.
///
/// # Safety
/// `dict` is a live dict on an interpreter with this layout.
#[inline(always)]
pub unsafe fn str_key_table(dict: *mut PyObject) -> Option<(*const *mut PyObject, usize)> {
    // SAFETY: as the caller guarantees.
    unsafe {
        let (entries, stride, n) = table(dict)?;
        let used = (*(dict as *const Dict)).ma_used as usize;
        (stride == 2 && n == used).then_some((entries, n))
    }
}

/// The members of a combined table of the general kind (entries that
/// carry their hash: CPython makes one for a dict pre-sized by
/// `_PyDict_NewPresized`, as `orjson.loads` makes its dicts of more than
/// eight members) whose keys are all exact strs and which has no deleted
/// entries, as `str_key_table` gives a table of the unicode kind: their
/// (key, value) pairs copied into `copy`, so the walker's shape paths read
/// both alike. Such dicts went member by member, and `dumps` of twitter
/// made by `orjson.loads` took 1.9x as long as of the same document made
/// by `json.loads`. The copy holds what the table held at this moment: as
/// with the table itself, the caller reads it only while the dict's
/// version tag is the one it read with it (no reference is taken; the
/// dict, which the caller holds, keeps the members alive). `None` for any
/// other table, or when the copy finds no memory.
///
/// # Safety
/// `dict` is a live dict on an interpreter with this layout; `str_type` is
/// `str`'s type object; GIL held.
pub unsafe fn general_str_pairs(
    dict: *mut PyObject,
    copy: &mut Vec<*mut PyObject>,
    str_type: *mut ffi::PyTypeObject,
) -> Option<(*const *mut PyObject, usize)> {
    // SAFETY: as the caller guarantees; every entry read is below the
    // table's entry count; keys are only compared by type, no Python code
    // runs.
    unsafe {
        let (entries, stride, n) = table(dict)?;
        if stride != 3 || n != len(dict) || copy.try_reserve_exact(2 * n).is_err() {
            return None;
        }
        copy.clear();
        for i in 0..n {
            let e = entries.add(3 * i);
            let (k, v) = (*e, *e.add(1));
            if k.is_null() || v.is_null() || ffi::Py_TYPE(k) != str_type {
                return None;
            }
            copy.push(k);
            copy.push(v);
        }
        Some((copy.as_ptr(), n))
    }
}

/// The dict's version tag, which CPython changes on every modification
/// (PEP 509): equal tags mean an unchanged table.
///
/// # Safety
/// `dict` is a live dict on an interpreter with this layout.
#[inline(always)]
pub unsafe fn version(dict: *mut PyObject) -> u64 {
    // SAFETY: as the caller guarantees.
    unsafe { (*(dict as *const Dict)).ma_version_tag }
}

/// The dict's member count (`ma_used`, what `PyDict_GET_SIZE` reads).
///
/// # Safety
/// `dict` is a live dict on an interpreter with this layout.
#[inline(always)]
pub unsafe fn len(dict: *mut PyObject) -> usize {
    // SAFETY: as the caller guarantees.
    unsafe { (*(dict as *const Dict)).ma_used as usize }
}

/// Whether the dict's keys may be objects other than exact strs: its table
/// is of the general kind (CPython keeps a table of the unicode kind, or a
/// split table, only while every key is an exact str).
///
/// # Safety
/// `dict` is a live dict on an interpreter with this layout.
#[inline(always)]
pub unsafe fn general_keys(dict: *mut PyObject) -> bool {
    // SAFETY: as the caller guarantees.
    unsafe { matches!(table(dict), Some((_, 3, _))) }
}

/// Whether `dict`'s table can be read in place (a combined table of a known kind).
///
/// # Safety
/// `dict` is a live dict on an interpreter with this layout.
#[inline(always)]
pub unsafe fn readable(dict: *mut PyObject) -> bool {
    // SAFETY: as the caller guarantees.
    unsafe { table(dict).is_some() }
}

/// Position of an in-place walk over a dict.
pub struct Cursor {
    i: usize,
}

impl Cursor {
    pub fn new() -> Cursor {
        Cursor { i: 0 }
    }

    /// The next (key, value) pair, borrowed; `None` at the end. `Err(())`
    /// when the table is of a kind we do not read (use `PyDict_Next`).
    ///
    /// # Safety
    /// `dict` is a live dict held by the caller, on an interpreter with this
    /// layout; GIL held.
    #[inline(always)]
    pub unsafe fn next(&mut self, dict: *mut PyObject) -> Result<Option<(*mut PyObject, *mut PyObject)>, ()> {
        // SAFETY: `table` reads the current table; every index used is below
        // its current entry count, so reads stay inside the entry array.
        unsafe {
            let Some((entries, stride, n)) = table(dict) else { return Err(()) };
            while self.i < n {
                let e = entries.add(self.i * stride);
                self.i += 1;
                let (k, v) = (*e, *e.add(1));
                if !v.is_null() && !k.is_null() {
                    // Start loading the value a few members ahead.
                    if self.i + 3 < n {
                        prefetch(*entries.add((self.i + 3) * stride + 1));
                    }
                    return Ok(Some((k, v)));
                }
            }
            Ok(None)
        }
    }
}

/// Asks the CPU to start loading `p`'s cache line.
#[inline(always)]
pub fn prefetch(p: *const PyObject) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it never faults and reads nothing the
    // program can observe, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Kind of a type's shared ("split") keys object (3.11).
const KIND_SPLIT: u8 = 2;

/// The index of the key `name` in a shared ("split") keys object, the
/// index of its value in the values array of instances that use those keys
/// (CPython 3.11); `None` when absent or not a split keys object.
///
/// # Safety
/// `keys` is null or a live `PyDictKeysObject` of this layout (a heap
/// type's `ht_cached_keys`); `name` a live str; GIL held.
pub unsafe fn split_index(keys: *const std::ffi::c_void, name: *mut PyObject) -> Option<usize> {
    // SAFETY: as the caller guarantees; entries below `dk_nentries` are
    // unicode entries {key, value}; keys are exact strs, compared by text
    // without running Python code.
    unsafe {
        let k = keys as *const DictKeys;
        if k.is_null() || (*k).dk_kind != KIND_SPLIT {
            return None;
        }
        let indices = (k as *const u8).add(std::mem::size_of::<DictKeys>());
        let entries = indices.add(1usize << (*k).dk_log2_index_bytes) as *const *mut PyObject;
        (0..(*k).dk_nentries as usize).find(|&i| {
            let key = *entries.add(2 * i);
            key == name || (!key.is_null() && ffi::PyUnicode_Compare(key, name) == 0)
        })
    }
}

/// Entries of a shared keys object (see `split_index`).
///
/// # Safety
/// As `split_index`, `keys` not null.
pub unsafe fn split_len(keys: *const std::ffi::c_void) -> usize {
    // SAFETY: as the caller guarantees.
    unsafe { (*(keys as *const DictKeys)).dk_nentries as usize }
}

/// The values array of `dict` when it is a split table over the shared
/// keys `keys`, else null. On CPython 3.11 an instance's dict made from its
/// inline values (`vars(obj)`, `obj.__dict__`, as orjson reads dataclasses)
/// is such a table: it takes over the instance's values array, so value `i`
/// is that of the keys' entry `i` (null when deleted), as for inline values.
/// Any change that leaves the shared keys (a key they cannot take, a dict
/// assigned to `__dict__`) makes the table combined or gives it other keys.
///
/// # Safety
/// `dict` is a live dict (or subclass) on an interpreter with this layout;
/// GIL held.
pub unsafe fn split_values(dict: *mut PyObject, keys: *const std::ffi::c_void) -> *const *mut PyObject {
    // SAFETY: the caller guarantees the layout; only two fields are read.
    unsafe {
        let d = dict as *const Dict;
        if (*d).ma_keys as *const std::ffi::c_void == keys && !keys.is_null() {
            (*d).ma_values as *const *mut PyObject
        } else {
            std::ptr::null()
        }
    }
}

/// An instance's inline values array and its dict, for a type with
/// `Py_TPFLAGS_MANAGED_DICT` on CPython 3.11: the two words before the
/// object's GC header. At most one is set: the values array until a dict
/// is made for the instance, the dict after.
///
/// # Safety
/// `obj` is a live instance of a type with `Py_TPFLAGS_MANAGED_DICT`, on
/// CPython 3.11; GIL held.
pub unsafe fn managed(obj: *mut PyObject) -> (*const *mut PyObject, *mut PyObject) {
    // SAFETY: as the caller guarantees: 3.11 keeps the values pointer at
    // word -4 and the dict pointer at word -3 of such an object.
    unsafe {
        let words = obj as *const *mut PyObject;
        (*words.offset(-4) as *const *mut PyObject, *words.offset(-3))
    }
}
