/*
 * jetjson.h: the C interface of jetjson, a JSON codec with byte-exact output
 * profiles (Go's json.Marshal bytes, RFC 8785 JCS, compact) at SIMD speed.
 *
 * Link with `pkg-config --cflags --libs jetjson` (shared library
 * libjetjson.so.1, see JETJSON_ABI_VERSION) or
 * `pkg-config --static --cflags --libs jetjson` (libjetjson.a).
 *
 * Rules that hold for every function:
 *
 *  - Every function except jetjson_version, jetjson_buffer_free and
 *    jetjson_writer_free returns a jetjson_status (JETJSON_OK is 0) and, when
 *    its last argument `err` is not NULL, fills *err: status, message and,
 *    for errors in JSON input, where (byte offset, line, column). On success
 *    *err is reset (status 0, empty message). `err` may be uninitialised
 *    memory; it is only written.
 *  - Strings and byte inputs are a pointer plus a length (size_t); nothing
 *    relies on NUL termination, and NUL bytes inside are data. A pointer may
 *    be NULL when its length is 0. Input is only read, and only during the
 *    call.
 *  - Options are passed by pointer; NULL means the defaults. A zeroed options
 *    struct is also the defaults (strict reading; compact output for the
 *    writer and jetjson_escape). Bytes that are hashed or signed name their
 *    profile: jetjson_canonicalize and jetjson_digest_canonical refuse NULL
 *    write options and a zero profile (as the CLI's canon and digest need
 *    --profile, and Python's canonicalize and digest a profile). An option
 *    that cannot change the profile's bytes is refused (JETJSON_ERR_ARGUMENT),
 *    as the CLI and Python refuse it: see jetjson_write_options.
 *  - ABI: the structs below are passed by pointer and read whole, so their
 *    layout is part of the binary interface. A change to a struct's layout
 *    or a function's signature (adding a field included) bumps
 *    JETJSON_ABI_VERSION, the N of the soname libjetjson.so.N: a program
 *    built against another version's header is never loaded with this
 *    library by mistake. New constants and new functions keep it.
 *  - Ownership: output bytes go into a jetjson_buffer the caller owns
 *    (release with jetjson_buffer_free or free()); a writer is released with
 *    jetjson_writer_free. jetjson_error, jetjson_digest and the options are
 *    plain values with nothing to release. Pointers handed to callbacks are
 *    valid only until the callback returns.
 *  - Threads: the library has no global mutable state. Any function may be
 *    called from any thread at the same time as any other, on different
 *    objects. A jetjson_writer or a jetjson_buffer must not be used by two
 *    threads at once.
 *  - No Rust panic crosses this interface: an internal bug is reported as
 *    JETJSON_ERR_INTERNAL. Out of memory inside the library aborts the
 *    process (Rust's rule), except growing a jetjson_buffer, which reports
 *    JETJSON_ERR_NO_MEMORY. Callbacks must return normally: no longjmp and
 *    no C++ exception may pass through the library.
 */
#ifndef JETJSON_H
#define JETJSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The N of the shared library's soname, libjetjson.so.N (see ABI above).
 * 1: jetjson_write_options gained max_write_depth; JETJSON_PROFILE_COMPACT is
 *    3 (0 is JETJSON_PROFILE_UNSET). */
#define JETJSON_ABI_VERSION 1

/* ---- statuses ----------------------------------------------------------- */

/* What every function returns: JETJSON_OK or one of the errors below. */
typedef int jetjson_status;

enum {
    JETJSON_OK = 0,
    /* A NULL pointer where one is required, an unknown enum value, an option
     * out of range, or an option that cannot change the profile's bytes
     * (see jetjson_write_options). */
    JETJSON_ERR_ARGUMENT = 1,
    /* The input is not one strict RFC 8259 JSON text (also: invalid UTF-8 in
     * it, a byte order mark without allow_bom, trailing bytes). */
    JETJSON_ERR_SYNTAX = 2,
    /* Nesting deeper than max_depth (reading) or max_write_depth (writing),
     * or input larger than max_size. */
    JETJSON_ERR_LIMIT = 3,
    /* An object names the same key twice (duplicate_keys ERROR). */
    JETJSON_ERR_DUPLICATE_KEY = 4,
    /* A value the profile cannot write: NaN or infinity, an integer beyond
     * the profile's range, text that is not UTF-8 where the profile does not
     * repair it (compact and jcs; go writes \ufffd per bad byte, as Go);
     * when reading, a number literal beyond the double range (1e400), which
     * every front end refuses. */
    JETJSON_ERR_VALUE = 5,
    /* A writer call out of order, or any call on a writer that failed or
     * finished. */
    JETJSON_ERR_STATE = 6,
    /* A callback returned non-zero. */
    JETJSON_ERR_CALLBACK = 7,
    /* realloc failed while growing a jetjson_buffer. */
    JETJSON_ERR_NO_MEMORY = 8,
    /* A bug in jetjson (a Rust panic caught at the boundary). */
    JETJSON_ERR_INTERNAL = 9
};

/* Bytes of jetjson_error.message, its terminating NUL included. */
#define JETJSON_MESSAGE_MAX 256

/* What went wrong and where. Filled by every function given a non-NULL err. */
typedef struct jetjson_error {
    jetjson_status status;   /* the value the function returned */
    int has_position;        /* 1 when offset/line/column locate the error */
    size_t offset;           /* 0-based byte offset in the input */
    size_t line;             /* 1-based line */
    size_t column;           /* 1-based column, in bytes */
    size_t message_len;      /* bytes in message before its NUL */
    /* UTF-8 text, NUL-terminated; cut at a character boundary when longer
     * than JETJSON_MESSAGE_MAX - 1 bytes. Errors about a value inside a
     * document jetjson reads (jetjson_canonicalize, a raw value) name the
     * place first: "$.items[3]: NaN is not allowed in profile \"go\"". The
     * streaming writer's errors are about the call that failed: the place
     * is the caller's (its sequence of calls), not named in the message. */
    char message[JETJSON_MESSAGE_MAX];
} jetjson_error;

/* The library's version ("0.1.0"): a static string, never freed. */
const char *jetjson_version(void);

/* ---- buffers ------------------------------------------------------------ */

/*
 * A growable byte buffer owned by the caller. The library appends output
 * after data[len] and grows the block with realloc(); it never changes the
 * first len bytes. data is NULL (then cap is 0) or a block from the C
 * library's malloc/calloc/realloc of cap bytes, so a caller may hand in a
 * block it allocated itself, reuse one buffer for many calls (set len = 0),
 * and release it with jetjson_buffer_free or with free(data).
 *
 * Functions that append leave the buffer's len as it was when they fail
 * (its data and cap may have changed: the block may have grown).
 * Output is not NUL-terminated.
 */
typedef struct jetjson_buffer {
    unsigned char *data;
    size_t len;
    size_t cap;
} jetjson_buffer;

#define JETJSON_BUFFER_INIT { NULL, 0, 0 }

/* Grows *buf so that `additional` more bytes fit after len.
 * JETJSON_ERR_ARGUMENT if buf is NULL or inconsistent (len > cap, or NULL
 * data with cap > 0); JETJSON_ERR_NO_MEMORY if realloc fails (the buffer is
 * then unchanged). */
jetjson_status jetjson_buffer_reserve(jetjson_buffer *buf, size_t additional, jetjson_error *err);

/* Frees buf->data and sets *buf to { NULL, 0, 0 }. NULL is allowed. */
void jetjson_buffer_free(jetjson_buffer *buf);

/* ---- options ------------------------------------------------------------ */

enum {
    /* 0, a zeroed struct: compact for jetjson_writer_new and jetjson_escape;
     * refused (JETJSON_ERR_ARGUMENT) by jetjson_canonicalize and
     * jetjson_digest_canonical, which need the profile named. */
    JETJSON_PROFILE_UNSET = 0,
    /* The bytes of Go's encoding/json Marshal (OCI/Docker digests). */
    JETJSON_PROFILE_GO = 1,
    /* RFC 8785 JSON Canonicalization Scheme (signatures). */
    JETJSON_PROFILE_JCS = 2,
    /* Minimal JSON, identical to serde_json and orjson output (3 since ABI
     * version 1; it was 0). */
    JETJSON_PROFILE_COMPACT = 3
};

enum {
    /* The profile's order: go sorts the keys of objects (maps) by UTF-8
     * bytes, as Go sorts a map, and keeps the fields of structs (the
     * writer's jetjson_writer_begin_struct) in order; jcs sorts every object
     * by UTF-16 code units (RFC 8785); compact keeps every order. Documents
     * read from JSON text (canonicalize, digest) are maps. */
    JETJSON_KEYS_PROFILE = 0,
    /* Every object sorted by the UTF-8 bytes of its keys (jcs: UTF-16). */
    JETJSON_KEYS_SORTED = 1,
    /* Every object in the order given, maps in go too; refused in jcs. */
    JETJSON_KEYS_KEEP = 2
};

enum {
    /* The profile's default: on in go, off in compact and jcs. */
    JETJSON_HTML_PROFILE = 0,
    /* Escape <, > and & as \u003c, \u003e, \u0026 (and U+2028/9). */
    JETJSON_HTML_ON = 1,
    /* No HTML escaping (go: Encoder.SetEscapeHTML(false), which still
     * escapes U+2028 and U+2029, as Go does). */
    JETJSON_HTML_OFF = 2
};

/* How output is written. All zeros: the compact profile's defaults for the
 * writer and jetjson_escape; jetjson_canonicalize and
 * jetjson_digest_canonical need profile set.
 *
 * An option that cannot change the profile's bytes is refused with
 * JETJSON_ERR_ARGUMENT (the rule the CLI and Python follow too): with jcs,
 * every one but max_write_depth (RFC 8785 fixes layout, escaping and key
 * order); with go, escape_html = JETJSON_HTML_ON (go escapes already); with
 * compact, escape_html = JETJSON_HTML_OFF and sort_keys = JETJSON_KEYS_KEEP
 * (what compact does already). */
typedef struct jetjson_write_options {
    int profile;       /* JETJSON_PROFILE_* (0: see JETJSON_PROFILE_UNSET) */
    int sort_keys;     /* JETJSON_KEYS_* */
    int escape_html;   /* JETJSON_HTML_* */
    int ascii_only;    /* 1: every non-ASCII character and DEL as \uXXXX; 0 or 1 */
    uint32_t indent;   /* spaces per level, 0 to 16; 0 is compact output */
    /* Deepest nesting of arrays and objects written, 1 to 1000000; 0 = 512
     * (the default of every front end, as max_depth's for reading). Deeper
     * fails with JETJSON_ERR_LIMIT: jetjson_canonicalize and
     * jetjson_digest_canonical when the document is deeper (read it with a
     * max_depth as high), a writer's begin call that would go deeper. */
    size_t max_write_depth;
} jetjson_write_options;

enum {
    /* A repeated key is an error (I-JSON, Go's json/v2). */
    JETJSON_DUPLICATES_ERROR = 0,
    /* Keep the first value (canonicalize, digest). */
    JETJSON_DUPLICATES_FIRST = 1,
    /* Keep the last value (canonicalize, digest; serde_json, Go v1). */
    JETJSON_DUPLICATES_LAST = 2
};

/* Limits and leniencies for reading. All zeros: strict RFC 8259 with a
 * nesting limit of 512 and no size limit. */
typedef struct jetjson_read_options {
    size_t max_depth;    /* deepest nesting of arrays and objects; 0 = 512 */
    size_t max_size;     /* largest input in bytes; 0 = no limit */
    int duplicate_keys;  /* JETJSON_DUPLICATES_* */
    int allow_bom;       /* 1: accept and skip a leading UTF-8 BOM; 0 or 1 */
} jetjson_read_options;

/* ---- documents: canonicalize, digest, validate ------------------------------ */

/* Reads `json` (one strict JSON text, with the read options) and appends
 * its bytes in the profile and write options to *out (write must name the
 * profile: not NULL, profile not 0). On failure *out's len is as before.
 * Errors: ARGUMENT, SYNTAX/LIMIT/DUPLICATE_KEY (with the
 * position in `json`), VALUE (jcs: a number beyond the double range),
 * NO_MEMORY. */
jetjson_status jetjson_canonicalize(const unsigned char *json, size_t len,
                                    const jetjson_write_options *write,
                                    const jetjson_read_options *read,
                                    jetjson_buffer *out, jetjson_error *err);

enum {
    JETJSON_SHA256 = 0,
    JETJSON_SHA512 = 1
};

/* Bytes of jetjson_digest.text: "sha512:", 128 hex digits and a NUL. */
#define JETJSON_DIGEST_MAX 136

/* A digest in the OCI form "sha256:<64 lowercase hex digits>" (or sha512
 * with 128), NUL-terminated; len excludes the NUL. */
typedef struct jetjson_digest {
    size_t len;
    char text[JETJSON_DIGEST_MAX];
} jetjson_digest;

/* The digest of what jetjson_canonicalize would write for `json`, hashed
 * while it is written (never held whole). Errors as jetjson_canonicalize. */
jetjson_status jetjson_digest_canonical(const unsigned char *json, size_t len,
                                        const jetjson_write_options *write,
                                        const jetjson_read_options *read,
                                        int algorithm, jetjson_digest *out,
                                        jetjson_error *err);

/* The digest of `data` exactly as given (OCI: a manifest's digest is over
 * its bytes as stored, not over a re-serialization). */
jetjson_status jetjson_digest_bytes(const unsigned char *data, size_t len,
                                    int algorithm, jetjson_digest *out,
                                    jetjson_error *err);

/* Checks that `json` is one strict JSON text within the read options,
 * building nothing. Errors: ARGUMENT; SYNTAX, LIMIT, DUPLICATE_KEY and
 * VALUE (a number beyond the double range, 1e400, which every jetjson
 * reader refuses), each with the byte offset, line and column of the
 * problem; NO_MEMORY. */
jetjson_status jetjson_validate(const unsigned char *json, size_t len,
                                const jetjson_read_options *read,
                                jetjson_error *err);

/* ---- one string ----------------------------------------------------------- */

/* Appends the escaped contents of the string s[0..len) to *out, without
 * quotes, exactly as the profile writes a string: the base set (control
 * characters, '"' and '\\', with \b \f \n \r \t short forms and \u00XX in
 * lowercase hex otherwise) plus what escape_html and ascii_only add (go adds
 * U+2028/9 always). Only the profile, escape_html and ascii_only of
 * `options` matter. Text that is not UTF-8: go writes \ufffd for each byte
 * Go's utf8.DecodeRune rejects; compact and jcs fail with JETJSON_ERR_VALUE
 * and the offset of the first bad byte. On failure *out's len is as before.
 * Reuse one buffer across calls to avoid allocation. */
jetjson_status jetjson_escape(const char *s, size_t len,
                              const jetjson_write_options *options,
                              jetjson_buffer *out, jetjson_error *err);

/* ---- streaming writer --------------------------------------------------- */

/*
 * Builds one JSON document from C data, writing exactly the profile's bytes.
 * Calls follow the grammar: one top-level value; in an object, key then
 * value for each member; every begin matched by its end; then
 * jetjson_writer_finish. A call out of order fails with JETJSON_ERR_STATE.
 * Any failure ends the writer: later calls return JETJSON_ERR_STATE.
 *
 * Objects are maps (jetjson_writer_begin_object) or structs
 * (jetjson_writer_begin_struct), each in its key order (see JETJSON_KEYS_*);
 * a sorted object's members are put in order when it ends, so output
 * reaches the buffer or callback only between sorted objects. The writer
 * does not look for repeated keys: a key written twice is written twice.
 * Strings and keys that are not UTF-8: go writes \ufffd per bad byte,
 * compact and jcs fail with JETJSON_ERR_VALUE.
 *
 * Release every writer with jetjson_writer_free, finished or not.
 */
typedef struct jetjson_writer jetjson_writer;

/* Where a callback writer's output goes, in chunks of 32 KiB or more (and
 * the rest at finish), handed over after a value, an opening bracket or a
 * key once that much is held (so a chunk ends with the string, number or
 * key that took it past 32 KiB, whole: a 1 MB string comes in one chunk);
 * a raw value in compact in pieces of 32 KiB, in jcs
 * as it is written again. Held whole until they end: a sorted object (its
 * members are sorted when it closes), and a raw value in go (compacted as
 * it is checked). Return 0 on success; any other value stops the
 * writer, whose call then fails with JETJSON_ERR_CALLBACK. The callback
 * must not call or free the writer that called it: a call on it from the
 * callback fails with JETJSON_ERR_STATE and ends the writer, and so does
 * the call that ran the callback. */
typedef int (*jetjson_write_fn)(void *user, const unsigned char *bytes, size_t len);

/* A writer appending to *out. The writer uses *out until it is freed: the
 * caller must not touch the buffer meanwhile. Once jetjson_writer_finish
 * returns JETJSON_OK, *out holds the document after its former bytes; if the
 * writer is freed without finishing, *out's len goes back to what it was.
 * On success *writer is the new writer; on failure it is NULL. */
jetjson_status jetjson_writer_new(const jetjson_write_options *options,
                                  jetjson_buffer *out,
                                  jetjson_writer **writer, jetjson_error *err);

/* A writer handing its output to write(user, bytes, len). Bytes already
 * handed over stay with the callback if the writer later fails. */
jetjson_status jetjson_writer_new_callback(const jetjson_write_options *options,
                                           jetjson_write_fn write, void *user,
                                           jetjson_writer **writer,
                                           jetjson_error *err);

/* Opens an object (as a value) whose keys go in the profile's map order:
 * go sorts them by UTF-8 bytes, as Go writes a map; jcs by UTF-16 code
 * units; compact keeps them as written (see JETJSON_KEYS_*). */
jetjson_status jetjson_writer_begin_object(jetjson_writer *writer, jetjson_error *err);

/* Opens an object whose keys are declared fields (a C or Go struct): go and
 * compact keep them in the order written, as Go writes a struct's fields;
 * jcs sorts them; JETJSON_KEYS_SORTED sorts them in every profile. Closed
 * by jetjson_writer_end_object. */
jetjson_status jetjson_writer_begin_struct(jetjson_writer *writer, jetjson_error *err);

/* Opens an array (as a value). */
jetjson_status jetjson_writer_begin_array(jetjson_writer *writer, jetjson_error *err);

/* Closes the innermost object or struct (after a complete member), or the
 * innermost array. */
jetjson_status jetjson_writer_end_object(jetjson_writer *writer, jetjson_error *err);
jetjson_status jetjson_writer_end_array(jetjson_writer *writer, jetjson_error *err);

/* The key of the next member of the innermost object. */
jetjson_status jetjson_writer_key(jetjson_writer *writer, const char *s, size_t len, jetjson_error *err);

/* A string value (s[0..len), UTF-8). */
jetjson_status jetjson_writer_string(jetjson_writer *writer, const char *s, size_t len, jetjson_error *err);

/* Integers, written exactly in compact and go. jcs writes numbers as
 * ECMAScript doubles: beyond +/-2^53 an integer becomes the nearest double. */
jetjson_status jetjson_writer_i64(jetjson_writer *writer, int64_t v, jetjson_error *err);
jetjson_status jetjson_writer_u64(jetjson_writer *writer, uint64_t v, jetjson_error *err);

/* A double in the profile's layout (go: Go's float64 format; jcs: the
 * ECMAScript format; compact: shortest round trip). NaN and infinities
 * fail with JETJSON_ERR_VALUE. */
jetjson_status jetjson_writer_double(jetjson_writer *writer, double v, jetjson_error *err);

/* true for any non-zero v, false for 0. */
jetjson_status jetjson_writer_bool(jetjson_writer *writer, int v, jetjson_error *err);
jetjson_status jetjson_writer_null(jetjson_writer *writer, jetjson_error *err);

/* One JSON value already serialized, embedded as the profile embeds raw
 * JSON: compact checks it (strict RFC 8259, one value) and copies it as is;
 * go writes it as Go writes a json.RawMessage (whitespace removed or
 * re-indented, escapes and number spellings kept, HTML characters escaped
 * when escape_html is on); jcs parses it and writes it canonically.
 * ascii_only, escape_html and sort_keys = JETJSON_KEYS_SORTED hold inside it too:
 * with any of them compact writes it as go does, with those options (an
 * indent alone leaves it as it is, as serde_json does). Invalid
 * JSON fails with JETJSON_ERR_SYNTAX, the position being within `json`. In
 * every profile its own nesting counts below max_write_depth from where it
 * is written: deeper fails with JETJSON_ERR_LIMIT naming that limit. Names
 * repeated in one of its objects fail in compact and jcs (as jetjson reads
 * JSON) and are kept in go (as Go's json.RawMessage keeps them). */
jetjson_status jetjson_writer_raw(jetjson_writer *writer, const unsigned char *json, size_t len, jetjson_error *err);

/* Completes the document: fails with JETJSON_ERR_STATE while containers are
 * open or before the top-level value; otherwise hands over the remaining
 * output. After it the writer accepts no more calls (free it). */
jetjson_status jetjson_writer_finish(jetjson_writer *writer, jetjson_error *err);

/* Releases a writer (NULL is allowed); with a buffer target that did not
 * finish, restores the buffer's len. */
void jetjson_writer_free(jetjson_writer *writer);

/* ---- callback (SAX) reader ---------------------------------------------- */

enum {
    JETJSON_NUMBER_I64 = 0, /* an integer that fits int64_t: field i64 */
    JETJSON_NUMBER_U64 = 1, /* an integer above INT64_MAX that fits uint64_t: u64 */
    JETJSON_NUMBER_F64 = 2, /* a fraction or exponent within the double range,
                               or -0: f64 */
    JETJSON_NUMBER_BIG = 3  /* an integer beyond 64 bits: only text is exact
                               (a literal beyond the double range is refused:
                               JETJSON_ERR_VALUE) */
};

/* A number as read. The field `kind` names holds the exact value; f64
 * always holds the nearest double; text is the literal exactly as in the
 * input (valid until the callback returns). */
typedef struct jetjson_number {
    int kind;         /* JETJSON_NUMBER_* */
    int is_integer;   /* 1 when the literal has no fraction and no exponent */
    int64_t i64;
    uint64_t u64;
    double f64;
    const char *text;
    size_t text_len;
} jetjson_number;

/* One callback per token; any may be NULL (the token is skipped). Each
 * returns 0 to go on, non-zero to stop the parse (jetjson_parse then fails
 * with JETJSON_ERR_CALLBACK and the position of the token). Strings and keys
 * arrive decoded (escapes resolved, UTF-8, may contain NUL bytes), valid
 * until the callback returns. An empty array or object arrives as its begin
 * then its end. */
typedef struct jetjson_visitor {
    int (*null_value)(void *user);
    int (*boolean)(void *user, int value);
    int (*number)(void *user, const jetjson_number *number);
    int (*string)(void *user, const char *s, size_t len);
    int (*key)(void *user, const char *s, size_t len);
    int (*begin_object)(void *user);
    int (*end_object)(void *user);
    int (*begin_array)(void *user);
    int (*end_array)(void *user);
} jetjson_visitor;

/* Parses `json` with the strict parser, calling the visitor's callbacks in
 * document order with `user`. Nothing is built. Tokens before an error have
 * already been reported when the error is found. With duplicate_keys ERROR
 * a repeated key fails (JETJSON_ERR_DUPLICATE_KEY); with FIRST or LAST every
 * member is reported and the choice is the visitor's. Errors: ARGUMENT,
 * SYNTAX, LIMIT, DUPLICATE_KEY, VALUE (a number beyond the double range),
 * CALLBACK, each with its position.
 * While the parse runs, `json[0..len)` and `*visitor` must not change and
 * stay valid: a callback must not write to the input or to the visitor
 * table, nor free either (the parser reads both between callbacks). */
jetjson_status jetjson_parse(const unsigned char *json, size_t len,
                             const jetjson_read_options *read,
                             const jetjson_visitor *visitor, void *user,
                             jetjson_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JETJSON_H */
