/* The streaming writer: random documents written through it equal the same
 * documents as JSON text through jetjson_canonicalize, in every profile
 * and layout; the callback target; the grammar it enforces; failures and
 * the buffer it restores; RFC 8785's number vectors through
 * jetjson_writer_double. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "util.h"

#define U(s) ((const unsigned char *)(s))

/* ---- random documents, as text and as writer calls at once ------------- */

static void text_string(str_t *text, const str_t *s) {
    escape_set compact = {0, 0, 0};
    str_puts(text, "\"");
    ref_escape(compact, (const unsigned char *)s->data, s->len, text);
    str_puts(text, "\"");
}

static int ok(jetjson_status st, const jetjson_error *err, const char *what) {
    CHECK(st == JETJSON_OK, "%s: status %d: %s", what, st, err->message);
    return st == JETJSON_OK;
}

/* One random value: appended to `text` as JSON and written through `w`. */
static void gen(uint64_t *st, int depth, str_t *text, jetjson_writer *w) {
    jetjson_error err;
    size_t kind = depth >= 5 ? rnd_below(st, 7) : rnd_below(st, 9);
    char num[64];
    switch (kind) {
    case 0: {
        int64_t v = (int64_t)rnd(st);
        if (rnd_below(st, 2))
            v %= 100000;
        snprintf(num, sizeof num, "%" PRId64, v);
        str_puts(text, num);
        ok(jetjson_writer_i64(w, v, &err), &err, "i64");
        break;
    }
    case 1: {
        uint64_t v = rnd(st) | (1ULL << 63);
        snprintf(num, sizeof num, "%" PRIu64, v);
        str_puts(text, num);
        ok(jetjson_writer_u64(w, v, &err), &err, "u64");
        break;
    }
    case 2: {
        double v;
        if (rnd_below(st, 2)) {
            uint64_t bits;
            do
                bits = rnd(st);
            while (((bits >> 52) & 0x7FF) == 0x7FF);
            memcpy(&v, &bits, 8);
        } else {
            v = (double)((int64_t)rnd_below(st, 2000001) - 1000000) / 1000.0;
        }
        /* %.17g round-trips; ".0" keeps integral values doubles in the text. */
        snprintf(num, sizeof num, "%.17g", v);
        if (!strpbrk(num, ".eE"))
            strcat(num, ".0");
        str_puts(text, num);
        ok(jetjson_writer_double(w, v, &err), &err, "double");
        break;
    }
    case 3:
    case 4: {
        str_t s = {0};
        random_text(st, rnd_below(st, 12), &s);
        text_string(text, &s);
        ok(jetjson_writer_string(w, s.data, s.len, &err), &err, "string");
        str_free(&s);
        break;
    }
    case 5: {
        int b = (int)rnd_below(st, 2);
        str_puts(text, b ? "true" : "false");
        ok(jetjson_writer_bool(w, b ? 7 : 0, &err), &err, "bool");
        break;
    }
    case 6:
        str_puts(text, "null");
        ok(jetjson_writer_null(w, &err), &err, "null");
        break;
    case 7: {
        size_t n = rnd_below(st, 6);
        str_puts(text, "[");
        ok(jetjson_writer_begin_array(w, &err), &err, "begin_array");
        for (size_t i = 0; i < n; i++) {
            if (i)
                str_puts(text, ",");
            gen(st, depth + 1, text, w);
        }
        str_puts(text, "]");
        ok(jetjson_writer_end_array(w, &err), &err, "end_array");
        break;
    }
    default: {
        size_t n = rnd_below(st, 7);
        str_puts(text, "{");
        ok(jetjson_writer_begin_object(w, &err), &err, "begin_object");
        for (size_t i = 0; i < n; i++) {
            if (i)
                str_puts(text, ",");
            /* Distinct keys: a random text after the member's index. */
            str_t key = {0};
            char idx[24];
            snprintf(idx, sizeof idx, "%zu", i);
            if (rnd_below(st, 2))
                random_text(st, rnd_below(st, 4), &key);
            str_puts(&key, idx);
            text_string(text, &key);
            str_puts(text, ":");
            ok(jetjson_writer_key(w, key.data, key.len, &err), &err, "key");
            str_free(&key);
            gen(st, depth + 1, text, w);
        }
        str_puts(text, "}");
        ok(jetjson_writer_end_object(w, &err), &err, "end_object");
    }
    }
}

static const jetjson_write_options LAYOUTS[] = {
    {JETJSON_PROFILE_COMPACT, 0, 0, 0, 0, 0},
    {JETJSON_PROFILE_COMPACT, JETJSON_KEYS_SORTED, 0, 0, 0, 0},
    {JETJSON_PROFILE_COMPACT, 0, 0, 0, 3, 0},
    {JETJSON_PROFILE_COMPACT, 0, JETJSON_HTML_ON, 1, 0, 0},
    {JETJSON_PROFILE_GO, 0, 0, 0, 0, 0},
    {JETJSON_PROFILE_GO, JETJSON_KEYS_KEEP, 0, 0, 0, 0},
    {JETJSON_PROFILE_GO, 0, JETJSON_HTML_OFF, 0, 2, 0},
    {JETJSON_PROFILE_JCS, 0, 0, 0, 0, 0},
};

static void test_random_documents(void) {
    for (size_t l = 0; l < sizeof LAYOUTS / sizeof *LAYOUTS; l++) {
        for (int doc = 0; doc < 150; doc++) {
            uint64_t st = 0xC0FFEEULL + (uint64_t)doc * 7919;
            jetjson_error err;
            jetjson_buffer out = JETJSON_BUFFER_INIT, want = JETJSON_BUFFER_INIT;
            jetjson_writer *w = NULL;
            CHECK_OK(jetjson_writer_new(&LAYOUTS[l], &out, &w, &err), err);
            str_t text = {0};
            gen(&st, 0, &text, w);
            CHECK_OK(jetjson_writer_finish(w, &err), err);
            jetjson_writer_free(w);
            CHECK_OK(jetjson_canonicalize(U(text.data), text.len, &LAYOUTS[l], NULL, &want, &err), err);
            char what[64];
            snprintf(what, sizeof what, "layout %zu doc %d", l, doc);
            CHECK_BYTES(out.data, out.len, want.data, want.len, what);
            str_free(&text);
            jetjson_buffer_free(&out);
            jetjson_buffer_free(&want);
        }
    }
}

/* ---- callback target --------------------------------------------------- */

typedef struct {
    str_t got;
    int calls;
    int fail_at; /* the call that fails (returns fail_code), 0 = none */
    int fail_code;
} collector;

static int collect(void *user, const unsigned char *bytes, size_t len) {
    collector *c = user;
    c->calls++;
    if (c->calls == c->fail_at)
        return c->fail_code;
    str_put(&c->got, bytes, len);
    return 0;
}

/* A document of about 500 KB: many members, long strings. */
static void write_big(jetjson_writer *w, jetjson_status *last) {
    jetjson_error err;
    *last = jetjson_writer_begin_array(w, &err);
    for (int i = 0; i < 4000 && *last == JETJSON_OK; i++) {
        char s[160];
        snprintf(s, sizeof s, "item %d with <html> & a \"quote\" and a tab\t to escape, then some more text to make it longer", i);
        *last = jetjson_writer_begin_object(w, &err);
        if (*last == JETJSON_OK)
            *last = jetjson_writer_key(w, "name", 4, &err);
        if (*last == JETJSON_OK)
            *last = jetjson_writer_string(w, s, strlen(s), &err);
        if (*last == JETJSON_OK)
            *last = jetjson_writer_key(w, "id", 2, &err);
        if (*last == JETJSON_OK)
            *last = jetjson_writer_i64(w, i, &err);
        if (*last == JETJSON_OK)
            *last = jetjson_writer_end_object(w, &err);
    }
    if (*last == JETJSON_OK)
        *last = jetjson_writer_end_array(w, &err);
    if (*last == JETJSON_OK)
        *last = jetjson_writer_finish(w, &err);
}

/* Counts what a callback gets: calls, bytes, the largest chunk. */
typedef struct {
    size_t total, largest;
    int calls;
} chunk_meter;

static int meter(void *user, const unsigned char *bytes, size_t len) {
    chunk_meter *m = user;
    (void)bytes;
    m->calls++;
    m->total += len;
    if (len > m->largest)
        m->largest = len;
    return 0;
}

/* A callback gets its output in chunks of about 32 KiB also from a run of
 * opening brackets (each with its indentation: 600 levels with indent 16
 * write 5.8 MB before the first value), of keys, and from a long raw value
 * in compact: before, each was held whole and handed over in one piece. */
static void test_callback_chunks(void) {
    jetjson_error err;
    jetjson_writer *w;
    const size_t bound = 32 * 1024 + 2 * 16 * 600 + 64; /* a spill, then one token */
    /* Not jcs: it has no indent, and sorts every object (held until it ends). */
    int profiles[] = {JETJSON_PROFILE_COMPACT, JETJSON_PROFILE_GO};
    for (int p = 0; p < 2; p++) {
        jetjson_write_options o = {profiles[p], 0, 0, 0, 16, 1000};
        chunk_meter m = {0, 0, 0};
        CHECK_OK(jetjson_writer_new_callback(&o, meter, &m, &w, &err), err);
        for (int i = 0; i < 600; i++) {
            if (i % 2 == 0) {
                CHECK_OK(jetjson_writer_begin_array(w, &err), err);
            } else {
                /* A struct: members in the order written (go sorts maps). */
                CHECK_OK(jetjson_writer_begin_struct(w, &err), err);
                CHECK_OK(jetjson_writer_key(w, "k", 1, &err), err);
            }
        }
        CHECK_OK(jetjson_writer_null(w, &err), err);
        for (int i = 599; i >= 0; i--) {
            if (i % 2 == 0)
                CHECK_OK(jetjson_writer_end_array(w, &err), err);
            else
                CHECK_OK(jetjson_writer_end_object(w, &err), err);
        }
        CHECK_OK(jetjson_writer_finish(w, &err), err);
        jetjson_writer_free(w);
        CHECK(m.total > 5000000 && m.largest <= bound, "profile %d: %zu bytes, largest chunk %zu (bound %zu), %d calls", profiles[p], m.total,
              m.largest, bound, m.calls);
    }
    /* A raw value of 1 MB in compact, [1,1,...,1]: in pieces, equal to the text. */
    size_t items = 1 << 19, len = 2 * items + 1;
    unsigned char *text = malloc(len);
    text[0] = '[';
    for (size_t i = 0; i < items; i++) {
        text[1 + 2 * i] = '1';
        text[2 + 2 * i] = (i + 1 < items) ? ',' : ']';
    }
    jetjson_write_options compact = {JETJSON_PROFILE_COMPACT, 0, 0, 0, 0, 0};
    collector c = {{0}, 0, 0, 0};
    CHECK_OK(jetjson_writer_new_callback(&compact, collect, &c, &w, &err), err);
    CHECK_OK(jetjson_writer_raw(w, text, len, &err), err);
    CHECK_OK(jetjson_writer_finish(w, &err), err);
    jetjson_writer_free(w);
    CHECK_BYTES(c.got.data, c.got.len, text, len, "a long raw value through a callback");
    CHECK(c.calls >= (int)(len / (64 * 1024)), "a long raw value in pieces: %d calls for %zu bytes", c.calls, len);
    str_free(&c.got);
    free(text);
}

/* A callback that calls its own writer (which jetjson.h forbids): the
 * nested call says so, and the call that ran the callback fails too, not
 * JETJSON_OK with the writer already dead (outside tester, stop 48). */
typedef struct {
    jetjson_writer *w;
    jetjson_status nested;
    char message[JETJSON_MESSAGE_MAX];
} reentry;

static int call_back_in(void *user, const unsigned char *bytes, size_t len) {
    reentry *r = user;
    jetjson_error err;
    (void)bytes;
    (void)len;
    r->nested = jetjson_writer_null(r->w, &err);
    memcpy(r->message, err.message, sizeof r->message);
    return 0;
}

static void test_callback_calling_its_writer(void) {
    jetjson_error err;
    jetjson_write_options compact = {JETJSON_PROFILE_COMPACT, 0, 0, 0, 0, 0};
    reentry r = {NULL, JETJSON_OK, {0}};
    static unsigned char big[40000];
    memset(big, 'a', sizeof big);
    CHECK_OK(jetjson_writer_new_callback(&compact, call_back_in, &r, &r.w, &err), err);
    CHECK_OK(jetjson_writer_begin_array(r.w, &err), err);
    jetjson_status outer = jetjson_writer_string(r.w, (const char *)big, sizeof big, &err);
    CHECK(r.nested == JETJSON_ERR_STATE && strstr(r.message, "from its write callback"), "nested call: %d %s", r.nested, r.message);
    CHECK(outer == JETJSON_ERR_STATE && strstr(err.message, "failed during this call"), "the call that ran the callback: %d %s", outer, err.message);
    CHECK(jetjson_writer_null(r.w, &err) == JETJSON_ERR_STATE, "later calls: %s", err.message);
    jetjson_writer_free(r.w);
}

static void test_callback_target(void) {
    jetjson_error err;
    jetjson_write_options go = {JETJSON_PROFILE_GO, 0, 0, 0, 0, 0};
    jetjson_buffer out = JETJSON_BUFFER_INIT;
    jetjson_writer *w;
    jetjson_status last;
    CHECK_OK(jetjson_writer_new(&go, &out, &w, &err), err);
    write_big(w, &last);
    CHECK(last == JETJSON_OK, "buffer target: %d", last);
    jetjson_writer_free(w);

    collector c = {{0}, 0, 0, 0};
    CHECK_OK(jetjson_writer_new_callback(&go, collect, &c, &w, &err), err);
    write_big(w, &last);
    CHECK(last == JETJSON_OK, "callback target: %d", last);
    jetjson_writer_free(w);
    CHECK_BYTES(c.got.data, c.got.len, out.data, out.len, "callback and buffer targets");
    CHECK(c.calls > 4 && out.len > 400000, "output came in chunks: %d calls, %zu bytes", c.calls, out.len);
    str_free(&c.got);

    /* A failing callback fails the call that spilled; later calls STATE. */
    collector f = {{0}, 0, 3, 42};
    CHECK_OK(jetjson_writer_new_callback(&go, collect, &f, &w, &err), err);
    write_big(w, &last);
    CHECK(last == JETJSON_ERR_CALLBACK, "failing callback: %d", last);
    CHECK(jetjson_writer_null(w, &err) == JETJSON_ERR_STATE && strstr(err.message, "returned 42"), "after the failure: %s", err.message);
    jetjson_writer_free(w);
    str_free(&f.got);
    CHECK(jetjson_writer_new_callback(&go, NULL, NULL, &w, &err) == JETJSON_ERR_ARGUMENT && w == NULL, "NULL callback");

    /* Freed before finishing: a buffer target gets its length back, also
     * after spills grew it. */
    jetjson_buffer keep = JETJSON_BUFFER_INIT;
    memcpy((jetjson_buffer_reserve(&keep, 3, &err), keep.data), "abc", 3);
    keep.len = 3;
    CHECK_OK(jetjson_writer_new(&go, &keep, &w, &err), err);
    CHECK_OK(jetjson_writer_begin_array(w, &err), err);
    for (int i = 0; i < 20000; i++)
        jetjson_writer_string(w, "some text to spill", 18, &err);
    CHECK(keep.len > 3, "spilled while writing: %zu", keep.len);
    jetjson_writer_free(w);
    CHECK(keep.len == 3 && memcmp(keep.data, "abc", 3) == 0, "restored to 3, len %zu", keep.len);
    /* Finished: appended after the old bytes. */
    CHECK_OK(jetjson_writer_new(&go, &keep, &w, &err), err);
    CHECK_OK(jetjson_writer_i64(w, 12, &err), err);
    CHECK_OK(jetjson_writer_finish(w, &err), err);
    jetjson_writer_free(w);
    CHECK_BYTES(keep.data, keep.len, "abc12", 5, "finished after a prefix");
    jetjson_buffer_free(&keep);
    jetjson_buffer_free(&out);
}

/* ---- the grammar ----------------------------------------------------------- */

typedef jetjson_status (*step_fn)(jetjson_writer *, jetjson_error *);
static jetjson_status key_a(jetjson_writer *w, jetjson_error *e) { return jetjson_writer_key(w, "a", 1, e); }
static jetjson_status one(jetjson_writer *w, jetjson_error *e) { return jetjson_writer_i64(w, 1, e); }
#define BO jetjson_writer_begin_object
#define EO jetjson_writer_end_object
#define BA jetjson_writer_begin_array
#define EA jetjson_writer_end_array
#define FIN jetjson_writer_finish

/* Runs `steps`; all but the last must succeed, the last must fail STATE. */
static void misuse(const char *name, step_fn *steps, size_t n) {
    jetjson_error err;
    jetjson_buffer out = JETJSON_BUFFER_INIT;
    jetjson_writer *w;
    CHECK_OK(jetjson_writer_new(NULL, &out, &w, &err), err);
    for (size_t i = 0; i < n; i++) {
        jetjson_status st = steps[i](w, &err);
        if (i + 1 < n)
            CHECK(st == JETJSON_OK, "%s: step %zu: %s", name, i, err.message);
        else
            CHECK(st == JETJSON_ERR_STATE && err.message_len > 0, "%s: last step: %d", name, st);
    }
    /* A failed writer refuses everything after. */
    CHECK(jetjson_writer_null(w, &err) == JETJSON_ERR_STATE && strstr(err.message, "failed earlier"), "%s: stays failed", name);
    jetjson_writer_free(w);
    CHECK(out.len == 0, "%s: buffer restored", name);
    jetjson_buffer_free(&out);
}

static void test_grammar(void) {
    step_fn a[] = {key_a};
    misuse("key at the top", a, 1);
    step_fn b[] = {BO, one};
    misuse("value without key", b, 2);
    step_fn c[] = {BO, key_a, key_a};
    misuse("two keys", c, 3);
    step_fn d[] = {BO, key_a, EO};
    misuse("end_object after a key", d, 3);
    step_fn e[] = {BA, EO};
    misuse("end_object in an array", e, 2);
    step_fn f[] = {BO, EA};
    misuse("end_array in an object", f, 2);
    step_fn g[] = {BA, key_a};
    misuse("key in an array", g, 2);
    step_fn h[] = {one, one};
    misuse("two top-level values", h, 2);
    step_fn i[] = {EA};
    misuse("end_array at the top", i, 1);
    step_fn j[] = {BA, FIN};
    misuse("finish with an open array", j, 2);
    step_fn k[] = {FIN};
    misuse("finish before a value", k, 1);
    step_fn l[] = {EO};
    misuse("end_object at the top", l, 1);

    /* After a successful finish, every call is refused. */
    jetjson_error err;
    jetjson_buffer out = JETJSON_BUFFER_INIT;
    jetjson_writer *w;
    CHECK_OK(jetjson_writer_new(NULL, &out, &w, &err), err);
    CHECK_OK(jetjson_writer_null(w, &err), err);
    CHECK_OK(jetjson_writer_finish(w, &err), err);
    CHECK(jetjson_writer_finish(w, &err) == JETJSON_ERR_STATE && strstr(err.message, "finished"), "finish twice: %s", err.message);
    jetjson_writer_free(w);
    CHECK_BYTES(out.data, out.len, "null", 4, "kept after finish");
    jetjson_buffer_free(&out);
    /* NULL handles and outputs. */
    CHECK(jetjson_writer_null(NULL, &err) == JETJSON_ERR_ARGUMENT, "NULL writer");
    CHECK(jetjson_writer_new(NULL, NULL, &w, &err) == JETJSON_ERR_ARGUMENT && w == NULL, "NULL buffer");
    CHECK(jetjson_writer_new(NULL, &out, NULL, &err) == JETJSON_ERR_ARGUMENT, "NULL writer out");
    jetjson_write_options bad = {9, 0, 0, 0, 0, 0};
    CHECK(jetjson_writer_new(&bad, &out, &w, &err) == JETJSON_ERR_ARGUMENT && w == NULL, "bad options");
    jetjson_writer_free(NULL);
}

/* ---- values the profiles refuse or transform -------------------------------- */

/* Writes one value with `step` in `o`; returns its status, output in `out`. */
static jetjson_status one_value(const jetjson_write_options *o, jetjson_buffer *out, jetjson_error *err,
                                jetjson_status (*step)(jetjson_writer *, jetjson_error *, const void *), const void *arg) {
    jetjson_writer *w;
    out->len = 0;
    jetjson_status st = jetjson_writer_new(o, out, &w, err);
    if (st == JETJSON_OK)
        st = step(w, err, arg);
    if (st == JETJSON_OK)
        st = jetjson_writer_finish(w, err);
    jetjson_writer_free(w);
    return st;
}

static jetjson_status put_double(jetjson_writer *w, jetjson_error *e, const void *v) { return jetjson_writer_double(w, *(const double *)v, e); }
static jetjson_status put_u64(jetjson_writer *w, jetjson_error *e, const void *v) { return jetjson_writer_u64(w, *(const uint64_t *)v, e); }
static jetjson_status put_i64(jetjson_writer *w, jetjson_error *e, const void *v) { return jetjson_writer_i64(w, *(const int64_t *)v, e); }
static jetjson_status put_raw(jetjson_writer *w, jetjson_error *e, const void *v) {
    return jetjson_writer_raw(w, (const unsigned char *)v, strlen(v), e);
}
static jetjson_status put_bad_text(jetjson_writer *w, jetjson_error *e, const void *v) {
    (void)v;
    return jetjson_writer_string(w, "a\xc0\xaf", 3, e);
}
static jetjson_status put_bad_key(jetjson_writer *w, jetjson_error *e, const void *v) {
    (void)v;
    jetjson_status st = jetjson_writer_begin_object(w, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_key(w, "\xff", 1, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_null(w, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_end_object(w, e);
    return st;
}

static void test_values(void) {
    jetjson_error err;
    jetjson_buffer out = JETJSON_BUFFER_INIT;
    jetjson_write_options compact = {0}, go = {JETJSON_PROFILE_GO, 0, 0, 0, 0, 0}, jcs = {JETJSON_PROFILE_JCS, 0, 0, 0, 0, 0};
    double nan = NAN, inf = INFINITY;
    for (int p = 0; p < 3; p++) {
        const jetjson_write_options *o = p == 0 ? &compact : p == 1 ? &go : &jcs;
        CHECK(one_value(o, &out, &err, put_double, &nan) == JETJSON_ERR_VALUE && out.len == 0, "NaN in profile %d", p);
        CHECK(strstr(err.message, "NaN") != NULL, "message: %s", err.message);
        CHECK(one_value(o, &out, &err, put_double, &inf) == JETJSON_ERR_VALUE, "inf in profile %d", p);
    }
    /* jcs numbers are doubles: 2^60 + 1 becomes 2^60, which ECMAScript
     * writes with its shortest 16 digits, then zeros; go keeps integers. */
    uint64_t big = (1ULL << 60) + 1;
    CHECK_OK(one_value(&jcs, &out, &err, put_u64, &big), err);
    CHECK_BYTES(out.data, out.len, "1152921504606847000", 19, "jcs u64");
    CHECK_OK(one_value(&go, &out, &err, put_u64, &big), err);
    CHECK_BYTES(out.data, out.len, "1152921504606846977", 19, "go u64");
    int64_t min = INT64_MIN;
    CHECK_OK(one_value(&go, &out, &err, put_i64, &min), err);
    CHECK_BYTES(out.data, out.len, "-9223372036854775808", 20, "go i64 min");
    /* Raw JSON: compact checks and copies, go compacts, jcs canonicalizes. */
    CHECK_OK(one_value(&compact, &out, &err, put_raw, "[1, 2.50]"), err);
    CHECK_BYTES(out.data, out.len, "[1, 2.50]", 9, "compact raw");
    CHECK_OK(one_value(&go, &out, &err, put_raw, "{\"b\": \"<\", \"a\": 1.0}"), err);
    CHECK_BYTES(out.data, out.len, "{\"b\":\"\\u003c\",\"a\":1.0}", 22, "go raw");
    CHECK_OK(one_value(&jcs, &out, &err, put_raw, "{\"b\": 1, \"a\": 1.0}"), err);
    CHECK_BYTES(out.data, out.len, "{\"a\":1,\"b\":1}", 13, "jcs raw");
    /* ascii_only and sort_keys hold inside raw JSON too: compact lays it out
     * as go does then, still refusing a name twice; an indent alone copies. */
    jetjson_write_options ascii_sorted = {JETJSON_PROFILE_COMPACT, JETJSON_KEYS_SORTED, 0, 1, 0, 0};
    CHECK_OK(one_value(&ascii_sorted, &out, &err, put_raw, "{\"b\": \"\xc3\xa9<\", \"a\": 1.0}"), err);
    CHECK_BYTES(out.data, out.len, "{\"a\":1.0,\"b\":\"\\u00e9<\"}", 23, "compact raw, ascii_only and sorted");
    CHECK(one_value(&ascii_sorted, &out, &err, put_raw, "{\"a\": 1, \"a\": 2}") != JETJSON_OK && strstr(err.message, "duplicate") != NULL,
          "compact raw laid out: a name twice: %s", err.message);
    jetjson_write_options indented = {JETJSON_PROFILE_COMPACT, 0, 0, 0, 2, 0};
    CHECK_OK(one_value(&indented, &out, &err, put_raw, "{ \"b\": 1 }"), err);
    CHECK_BYTES(out.data, out.len, "{ \"b\": 1 }", 10, "compact raw with an indent alone");
    for (int p = 0; p < 3; p++) {
        const jetjson_write_options *o = p == 0 ? &compact : p == 1 ? &go : &jcs;
        jetjson_status st = one_value(o, &out, &err, put_raw, "[1,\n 2,]");
        CHECK(st == JETJSON_ERR_SYNTAX && err.has_position && err.offset == 7 && err.line == 2 && err.column == 4,
              "raw syntax error in profile %d: %d at %zu %zu:%zu", p, st, err.offset, err.line, err.column);
    }
    /* Text that is not UTF-8: go repairs per byte, compact and jcs refuse. */
    CHECK_OK(one_value(&go, &out, &err, put_bad_text, NULL), err);
    CHECK_BYTES(out.data, out.len, "\"a\\ufffd\\ufffd\"", 15, "go repairs C0 AF");
    CHECK(one_value(&compact, &out, &err, put_bad_text, NULL) == JETJSON_ERR_VALUE, "compact refuses");
    CHECK_OK(one_value(&go, &out, &err, put_bad_key, NULL), err);
    CHECK_BYTES(out.data, out.len, "{\"\\ufffd\":null}", 15, "go repairs a key");
    CHECK(one_value(&jcs, &out, &err, put_bad_key, NULL) == JETJSON_ERR_VALUE, "jcs refuses a bad key");
    jetjson_buffer_free(&out);
}

/* Structs keep their fields in order in go and compact (as Go writes a
 * struct) while maps inside them are sorted in go; jcs and
 * JETJSON_KEYS_SORTED sort both. */
static jetjson_status put_struct(jetjson_writer *w, jetjson_error *e, const void *v) {
    (void)v;
    jetjson_status st = jetjson_writer_begin_struct(w, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_key(w, "z", 1, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_begin_object(w, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_key(w, "b", 1, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_i64(w, 1, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_key(w, "a", 1, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_begin_struct(w, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_end_object(w, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_end_object(w, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_key(w, "m", 1, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_null(w, e);
    if (st == JETJSON_OK)
        st = jetjson_writer_end_object(w, e);
    return st;
}

static void test_structs(void) {
    jetjson_error err;
    jetjson_buffer out = JETJSON_BUFFER_INIT;
    jetjson_write_options compact = {0}, go = {JETJSON_PROFILE_GO, 0, 0, 0, 0, 0}, jcs = {JETJSON_PROFILE_JCS, 0, 0, 0, 0, 0};
    jetjson_write_options sorted = {0, JETJSON_KEYS_SORTED, 0, 0, 0, 0}, go_keep = {JETJSON_PROFILE_GO, JETJSON_KEYS_KEEP, 0, 0, 0, 0};
    CHECK_OK(one_value(&go, &out, &err, put_struct, NULL), err);
    CHECK_BYTES(out.data, out.len, "{\"z\":{\"a\":{},\"b\":1},\"m\":null}", 29, "go: struct kept, map sorted");
    CHECK_OK(one_value(&compact, &out, &err, put_struct, NULL), err);
    CHECK_BYTES(out.data, out.len, "{\"z\":{\"b\":1,\"a\":{}},\"m\":null}", 29, "compact keeps both");
    CHECK_OK(one_value(&go_keep, &out, &err, put_struct, NULL), err);
    CHECK_BYTES(out.data, out.len, "{\"z\":{\"b\":1,\"a\":{}},\"m\":null}", 29, "go KEEP keeps both");
    CHECK_OK(one_value(&jcs, &out, &err, put_struct, NULL), err);
    CHECK_BYTES(out.data, out.len, "{\"m\":null,\"z\":{\"a\":{},\"b\":1}}", 29, "jcs sorts both");
    CHECK_OK(one_value(&sorted, &out, &err, put_struct, NULL), err);
    CHECK_BYTES(out.data, out.len, "{\"m\":null,\"z\":{\"a\":{},\"b\":1}}", 29, "SORTED sorts both");
    jetjson_buffer_free(&out);
}

/* Nesting far beyond the default limit, with max_write_depth raised: the
 * writer keeps its own stack. */
static void test_deep(void) {
    jetjson_error err;
    jetjson_buffer out = JETJSON_BUFFER_INIT;
    jetjson_writer *w;
    int n = 100000, failed = 0;
    jetjson_write_options go = {JETJSON_PROFILE_GO, 0, 0, 0, 0, (size_t)n};
    CHECK_OK(jetjson_writer_new(&go, &out, &w, &err), err);
    for (int i = 0; i < n; i++)
        failed |= jetjson_writer_begin_object(w, &err) | jetjson_writer_key(w, "k", 1, &err);
    failed |= jetjson_writer_null(w, &err);
    for (int i = 0; i < n; i++)
        failed |= jetjson_writer_end_object(w, &err);
    CHECK(!failed, "deep nesting: %s", err.message);
    CHECK_OK(jetjson_writer_finish(w, &err), err);
    jetjson_writer_free(w);
    CHECK(out.len == (size_t)n * 6 + 4, "deep output %zu", out.len);
    jetjson_buffer_free(&out);
}

/* max_write_depth holds in the writer: 0 is the default (512), and the
 * begin call that would go past the limit fails with JETJSON_ERR_LIMIT,
 * naming it, and ends the writer (the buffer gets its length back). */
static void test_write_depth_limit(void) {
    jetjson_error err;
    jetjson_buffer out = JETJSON_BUFFER_INIT;
    jetjson_writer *w;
    size_t limits[] = {0, 1, 3};
    for (size_t k = 0; k < sizeof limits / sizeof *limits; k++) {
        size_t limit = limits[k] ? limits[k] : 512;
        jetjson_write_options o = {JETJSON_PROFILE_COMPACT, 0, 0, 0, 0, limits[k]};
        /* Exactly `limit` levels: written. */
        CHECK_OK(jetjson_writer_new(&o, &out, &w, &err), err);
        int failed = 0;
        for (size_t i = 0; i < limit; i++)
            failed |= i % 2 ? jetjson_writer_begin_array(w, &err) : jetjson_writer_begin_struct(w, &err) | jetjson_writer_key(w, "k", 1, &err);
        failed |= jetjson_writer_null(w, &err);
        for (size_t i = limit; i-- > 0;)
            failed |= i % 2 ? jetjson_writer_end_array(w, &err) : jetjson_writer_end_object(w, &err);
        CHECK(!failed, "limit %zu: %s", limit, err.message);
        CHECK_OK(jetjson_writer_finish(w, &err), err);
        jetjson_writer_free(w);
        /* One more: the begin that goes past fails, and so does the next call. */
        size_t before = out.len;
        CHECK_OK(jetjson_writer_new(&o, &out, &w, &err), err);
        for (size_t i = 0; i < limit; i++)
            jetjson_writer_begin_array(w, &err);
        jetjson_status st = jetjson_writer_begin_object(w, &err);
        char want[64];
        snprintf(want, sizeof want, "nesting deeper than max_write_depth %zu", limit);
        CHECK(st == JETJSON_ERR_LIMIT && strcmp(err.message, want) == 0, "limit %zu: status %d: %s", limit, st, err.message);
        CHECK(jetjson_writer_null(w, &err) == JETJSON_ERR_STATE, "a failed writer stays failed");
        jetjson_writer_free(w);
        CHECK(out.len == before, "limit %zu: buffer restored to %zu, is %zu", limit, before, out.len);
    }
    jetjson_buffer_free(&out);
}

static jetjson_status put_raw_in_array(jetjson_writer *w, jetjson_error *e, const void *v) {
    jetjson_status st = jetjson_writer_begin_array(w, e);
    if (st == JETJSON_OK)
        st = put_raw(w, e, v);
    if (st == JETJSON_OK)
        st = jetjson_writer_end_array(w, e);
    return st;
}

/* `depth` nested empty arrays, NUL-terminated, into `text` (2 * depth + 1
 * bytes). */
static char *nested_arrays(char *text, size_t depth) {
    memset(text, '[', depth);
    memset(text + depth, ']', depth);
    text[2 * depth] = 0;
    return text;
}

/* A raw value's own nesting counts below max_write_depth in every profile:
 * compact checks the text it copies under the room the write limit leaves
 * (it used the read default, 512, which a raised limit could not lift),
 * as go lays it out again (it had no limit: a 100,000-deep raw value with
 * an indent of 1 wrote 10 GB) and jcs reads it again. */
static void test_raw_depth_under_the_write_limit(void) {
    jetjson_error err;
    jetjson_buffer out = JETJSON_BUFFER_INIT;
    enum { N = 600 };
    char *text = malloc(2 * N + 2);
    int profiles[] = {JETJSON_PROFILE_COMPACT, JETJSON_PROFILE_GO, JETJSON_PROFILE_JCS};
    for (size_t p = 0; p < 3; p++) {
        for (int depth = 510; depth <= N; depth += 1) {
            if (depth > 514 && depth < N - 2)
                continue;
            nested_arrays(text, (size_t)depth);
            size_t limits[] = {0, N, N + 1};
            for (size_t k = 0; k < 3; k++) {
                size_t limit = limits[k] ? limits[k] : 512;
                jetjson_write_options o = {profiles[p], 0, 0, 0, 0, limits[k]};
                for (int inside = 0; inside < 2; inside++) {
                    jetjson_status st = one_value(&o, &out, &err, inside ? put_raw_in_array : put_raw, text);
                    size_t need = (size_t)depth + (size_t)inside;
                    if (need <= limit) {
                        CHECK(st == JETJSON_OK && out.len == 2 * need, "profile %d depth %d limit %zu inside %d: %s", profiles[p], depth, limit,
                              inside, err.message);
                    } else {
                        char want[64];
                        snprintf(want, sizeof want, "nesting deeper than max_write_depth %zu", limit);
                        CHECK(st == JETJSON_ERR_LIMIT && strstr(err.message, want) != NULL, "profile %d depth %d limit %zu inside %d: %d %s",
                              profiles[p], depth, limit, inside, st, err.message);
                    }
                }
            }
        }
    }
    free(text);
    /* The tester's case: go, an indent, a low limit, a very deep text. */
    enum { DEEP = 100000 };
    char *deep = nested_arrays(malloc(2 * DEEP + 1), DEEP);
    jetjson_write_options go = {JETJSON_PROFILE_GO, 0, 0, 0, 1, 2};
    jetjson_status st = one_value(&go, &out, &err, put_raw, deep);
    CHECK(st == JETJSON_ERR_LIMIT && strstr(err.message, "max_write_depth 2") != NULL, "go deep raw: %d %s", st, err.message);
    /* jcs reads a raw value into a value and writes it by recursion: as
     * deep as a raised limit allows, on this thread's stack (30,000 levels
     * crashed it). */
    enum { JCS_DEEP = 60000 };
    jetjson_write_options jcs = {JETJSON_PROFILE_JCS, 0, 0, 0, 0, JCS_DEEP};
    char *jdeep = nested_arrays(malloc(2 * JCS_DEEP + 1), JCS_DEEP);
    st = one_value(&jcs, &out, &err, put_raw, jdeep);
    CHECK(st == JETJSON_OK && out.len == 2 * JCS_DEEP && memcmp(out.data, jdeep, out.len) == 0, "jcs deep raw: %d %s", st, err.message);
    free(jdeep);
    free(deep);
    jetjson_buffer_free(&out);
}

/* RFC 8785 / ECMAScript number vectors through jetjson_writer_double. */
static void test_es6_numbers(const char *corpus) {
    char path[4096];
    snprintf(path, sizeof path, "%s/jcs/es6numbers/es6testfile_first10000.txt", corpus);
    size_t len;
    char *file = (char *)read_file(path, &len);
    CHECK(file != NULL, "read %s", path);
    if (!file)
        return;
    jetjson_write_options jcs = {JETJSON_PROFILE_JCS, 0, 0, 0, 0, 0};
    jetjson_buffer out = JETJSON_BUFFER_INIT;
    jetjson_error err;
    int lines = 0, bad = 0;
    char *save = NULL;
    for (char *line = strtok_r(file, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *comma = strchr(line, ',');
        if (!comma)
            continue;
        *comma = 0;
        uint64_t bits = strtoull(line, NULL, 16);
        double v;
        memcpy(&v, &bits, 8);
        jetjson_status st = one_value(&jcs, &out, &err, put_double, &v);
        if (st != JETJSON_OK || out.len != strlen(comma + 1) || memcmp(out.data, comma + 1, out.len) != 0) {
            if (bad++ < 5)
                CHECK(0, "es6 %s: want %s, got %.*s (%s)", line, comma + 1, (int)out.len, (const char *)out.data, err.message);
        }
        lines++;
    }
    CHECK(lines == 10000 && bad == 0, "%d es6 lines, %d wrong", lines, bad);
    jetjson_buffer_free(&out);
    free(file);
}

void test_writer(const char *corpus) {
    test_random_documents();
    test_callback_target();
    test_callback_calling_its_writer();
    test_callback_chunks();
    test_grammar();
    test_values();
    test_structs();
    test_deep();
    test_raw_depth_under_the_write_limit();
    test_write_depth_limit();
    test_es6_numbers(corpus);
}
