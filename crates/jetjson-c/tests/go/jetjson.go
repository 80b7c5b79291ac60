// Package jetjson calls libjetjson through cgo, as a Go service would: the
// profile's bytes (Go's json.Marshal bytes in the go profile), digests,
// string escaping and a streaming writer. Build with the library installed
// and PKG_CONFIG_PATH pointing at its jetjson.pc.
package jetjson

// #cgo pkg-config: jetjson
// #include <stdlib.h>
// #include <jetjson.h>
import "C"

import (
	"fmt"
	"unsafe"
)

// Profiles.
const (
	Compact = C.JETJSON_PROFILE_COMPACT
	Go      = C.JETJSON_PROFILE_GO
	JCS     = C.JETJSON_PROFILE_JCS
)

// Options mirrors jetjson_write_options (zero: compact defaults).
type Options struct {
	Profile   int
	SortKeys  int // 0 profile, 1 sorted, 2 keep
	HTML      int // 0 profile, 1 on, 2 off
	ASCIIOnly bool
	Indent    uint32
	// MaxWriteDepth: deepest nesting written; 0 is 512.
	MaxWriteDepth int
}

// Error is a failed call: the status and jetjson_error's fields.
type Error struct {
	Status      int
	Message     string
	HasPosition bool
	Offset      int
}

func (e *Error) Error() string {
	if e.HasPosition {
		return fmt.Sprintf("jetjson: status %d at byte %d: %s", e.Status, e.Offset, e.Message)
	}
	return fmt.Sprintf("jetjson: status %d: %s", e.Status, e.Message)
}

func check(status C.jetjson_status, err *C.jetjson_error) error {
	if status == C.JETJSON_OK {
		return nil
	}
	return &Error{
		Status:      int(status),
		Message:     C.GoStringN(&err.message[0], C.int(err.message_len)),
		HasPosition: err.has_position != 0,
		Offset:      int(err.offset),
	}
}

func (o *Options) c() C.jetjson_write_options {
	ascii := C.int(0)
	if o.ASCIIOnly {
		ascii = 1
	}
	return C.jetjson_write_options{
		profile:         C.int(o.Profile),
		sort_keys:       C.int(o.SortKeys),
		escape_html:     C.int(o.HTML),
		ascii_only:      ascii,
		indent:          C.uint32_t(o.Indent),
		max_write_depth: C.size_t(o.MaxWriteDepth),
	}
}

// bytesPtr is the address of b's bytes for the duration of one call (cgo
// lets C read Go memory that holds no Go pointers during the call).
func bytesPtr(b []byte) *C.uchar {
	if len(b) == 0 {
		return nil
	}
	return (*C.uchar)(unsafe.Pointer(&b[0]))
}

func stringPtr(s string) *C.char {
	if len(s) == 0 {
		return nil
	}
	return (*C.char)(unsafe.Pointer(unsafe.StringData(s)))
}

// takeBuffer copies a jetjson_buffer's bytes into Go memory and frees it.
func takeBuffer(b *C.jetjson_buffer) []byte {
	out := C.GoBytes(unsafe.Pointer(b.data), C.int(b.len))
	C.jetjson_buffer_free(b)
	return out
}

// ReadOptions mirrors jetjson_read_options (zero: strict, depth 512).
type ReadOptions struct {
	MaxDepth   int
	MaxSize    int
	Duplicates int // 0 error, 1 first, 2 last (as Go's Unmarshal)
	AllowBOM   bool
}

func (r *ReadOptions) c() C.jetjson_read_options {
	bom := C.int(0)
	if r.AllowBOM {
		bom = 1
	}
	return C.jetjson_read_options{
		max_depth:      C.size_t(r.MaxDepth),
		max_size:       C.size_t(r.MaxSize),
		duplicate_keys: C.int(r.Duplicates),
		allow_bom:      bom,
	}
}

// Canonicalize rewrites JSON text in the options' profile.
func Canonicalize(json []byte, o Options, r ReadOptions) ([]byte, error) {
	var buf C.jetjson_buffer
	var err C.jetjson_error
	opts, read := o.c(), r.c()
	st := C.jetjson_canonicalize(bytesPtr(json), C.size_t(len(json)), &opts, &read, &buf, &err)
	out := takeBuffer(&buf)
	return out, check(st, &err)
}

// DigestBytes is "sha256:<hex>" of b exactly as given.
func DigestBytes(b []byte) (string, error) {
	var d C.jetjson_digest
	var err C.jetjson_error
	st := C.jetjson_digest_bytes(bytesPtr(b), C.size_t(len(b)), C.JETJSON_SHA256, &d, &err)
	return C.GoStringN(&d.text[0], C.int(d.len)), check(st, &err)
}

// DigestCanonical is "sha256:<hex>" of Canonicalize(json, o), hashed while
// written.
func DigestCanonical(json []byte, o Options) (string, error) {
	var d C.jetjson_digest
	var err C.jetjson_error
	opts := o.c()
	st := C.jetjson_digest_canonical(bytesPtr(json), C.size_t(len(json)), &opts, nil, C.JETJSON_SHA256, &d, &err)
	if st != C.JETJSON_OK {
		return "", check(st, &err)
	}
	return C.GoStringN(&d.text[0], C.int(d.len)), nil
}

// Escape is s escaped (no quotes) in the options' escape set.
func Escape(s string, o Options) ([]byte, error) {
	var buf C.jetjson_buffer
	var err C.jetjson_error
	opts := o.c()
	st := C.jetjson_escape(stringPtr(s), C.size_t(len(s)), &opts, &buf, &err)
	out := takeBuffer(&buf)
	return out, check(st, &err)
}

// Writer builds one document. The library keeps a pointer to its output
// buffer between calls, so the buffer lives in C memory, not Go memory.
type Writer struct {
	w   *C.jetjson_writer
	buf *C.jetjson_buffer
	err C.jetjson_error
}

// NewWriter starts a document; Close releases it.
func NewWriter(o Options) (*Writer, error) {
	w := &Writer{buf: (*C.jetjson_buffer)(C.calloc(1, C.size_t(unsafe.Sizeof(C.jetjson_buffer{}))))}
	opts := o.c()
	if err := check(C.jetjson_writer_new(&opts, w.buf, &w.w, &w.err), &w.err); err != nil {
		C.free(unsafe.Pointer(w.buf))
		return nil, err
	}
	return w, nil
}

func (w *Writer) BeginObject() error {
	return check(C.jetjson_writer_begin_object(w.w, &w.err), &w.err)
}
func (w *Writer) BeginStruct() error {
	return check(C.jetjson_writer_begin_struct(w.w, &w.err), &w.err)
}
func (w *Writer) EndObject() error  { return check(C.jetjson_writer_end_object(w.w, &w.err), &w.err) }
func (w *Writer) BeginArray() error { return check(C.jetjson_writer_begin_array(w.w, &w.err), &w.err) }
func (w *Writer) EndArray() error   { return check(C.jetjson_writer_end_array(w.w, &w.err), &w.err) }
func (w *Writer) Null() error       { return check(C.jetjson_writer_null(w.w, &w.err), &w.err) }
func (w *Writer) Int64(v int64) error {
	return check(C.jetjson_writer_i64(w.w, C.int64_t(v), &w.err), &w.err)
}
func (w *Writer) Uint64(v uint64) error {
	return check(C.jetjson_writer_u64(w.w, C.uint64_t(v), &w.err), &w.err)
}
func (w *Writer) Float64(v float64) error {
	return check(C.jetjson_writer_double(w.w, C.double(v), &w.err), &w.err)
}
func (w *Writer) Bool(v bool) error {
	b := C.int(0)
	if v {
		b = 1
	}
	return check(C.jetjson_writer_bool(w.w, b, &w.err), &w.err)
}
func (w *Writer) Key(k string) error {
	return check(C.jetjson_writer_key(w.w, stringPtr(k), C.size_t(len(k)), &w.err), &w.err)
}
func (w *Writer) String(s string) error {
	return check(C.jetjson_writer_string(w.w, stringPtr(s), C.size_t(len(s)), &w.err), &w.err)
}
func (w *Writer) Raw(json []byte) error {
	return check(C.jetjson_writer_raw(w.w, bytesPtr(json), C.size_t(len(json)), &w.err), &w.err)
}

// Finish completes the document and returns its bytes.
func (w *Writer) Finish() ([]byte, error) {
	if err := check(C.jetjson_writer_finish(w.w, &w.err), &w.err); err != nil {
		return nil, err
	}
	return C.GoBytes(unsafe.Pointer(w.buf.data), C.int(w.buf.len)), nil
}

// Close frees the writer and its buffer.
func (w *Writer) Close() {
	C.jetjson_writer_free(w.w)
	C.jetjson_buffer_free(w.buf)
	C.free(unsafe.Pointer(w.buf))
}
