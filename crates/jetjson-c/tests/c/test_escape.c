/* jetjson_escape against the reference escaper of util.c, in every escape
 * set, on random strings short and long (past the 64 KiB pieces the
 * library cuts long input into), and its failure rules. */
#include <stdlib.h>

#include "util.h"

static const jetjson_write_options SETS[] = {
    {JETJSON_PROFILE_COMPACT, 0, 0, 0, 0, 0},
    {JETJSON_PROFILE_COMPACT, 0, JETJSON_HTML_ON, 0, 0, 0},
    {JETJSON_PROFILE_COMPACT, 0, 0, 1, 0, 0},
    {JETJSON_PROFILE_COMPACT, 0, JETJSON_HTML_ON, 1, 0, 0},
    {JETJSON_PROFILE_GO, 0, 0, 0, 0, 0},
    {JETJSON_PROFILE_GO, 0, JETJSON_HTML_OFF, 0, 0, 0},
    {JETJSON_PROFILE_GO, 0, 0, 1, 0, 0},
    {JETJSON_PROFILE_JCS, 0, 0, 0, 0, 0},
};
#define NSETS (sizeof SETS / sizeof *SETS)

static void compare(const jetjson_write_options *o, const str_t *in, jetjson_buffer *out, const char *what) {
    jetjson_error err;
    str_t want = {0};
    ref_escape(set_of(o), (const unsigned char *)in->data, in->len, &want);
    out->len = 0;
    CHECK_OK(jetjson_escape(in->data, in->len, o, out, &err), err);
    CHECK_BYTES(out->data, out->len, want.data, want.len, what);
    str_free(&want);
}

static void test_random_strings(void) {
    uint64_t state = 0x9E3779B97F4A7C15ULL;
    jetjson_buffer out = JETJSON_BUFFER_INIT;
    for (int round = 0; round < 400; round++) {
        str_t in = {0};
        random_text(&state, rnd_below(&state, 120), &in);
        for (size_t s = 0; s < NSETS; s++) {
            char what[64];
            snprintf(what, sizeof what, "round %d set %zu", round, s);
            compare(&SETS[s], &in, &out, what);
        }
        str_free(&in);
    }
    /* Long strings: multi-byte characters and escapes at every place
     * relative to the piece boundaries. */
    for (int round = 0; round < 6; round++) {
        str_t in = {0};
        /* Clean text up to just before a boundary, then a mix. */
        size_t clean = 65536 - 8 + (size_t)round * 3;
        for (size_t i = 0; i < clean; i++)
            str_put(&in, "x", 1);
        random_text(&state, 40000, &in);
        for (size_t s = 0; s < NSETS; s++) {
            char what[64];
            snprintf(what, sizeof what, "long round %d set %zu", round, s);
            compare(&SETS[s], &in, &out, what);
        }
        str_free(&in);
    }
    /* Every multi-byte character across the first piece boundary (64 KiB)
     * at each of its inner offsets. */
    const char *wide[] = {"\xc3\xa9", "\xe2\x82\xac", "\xe2\x80\xa8", "\xf0\x9f\x98\x80"};
    for (size_t c = 0; c < 4; c++) {
        for (size_t shift = 1; shift <= 3; shift++) {
            str_t in = {0};
            for (size_t i = 0; i < 65536 - shift; i++)
                str_put(&in, "x", 1);
            str_puts(&in, wide[c]);
            str_puts(&in, "\"tail");
            for (size_t s = 0; s < NSETS; s++) {
                char what[64];
                snprintf(what, sizeof what, "char %zu at boundary - %zu, set %zu", c, shift, s);
                compare(&SETS[s], &in, &out, what);
            }
            str_free(&in);
        }
    }
    jetjson_buffer_free(&out);
}

/* Invalid UTF-8: go writes \ufffd per rejected byte (checked against Go
 * itself by the cgo test); compact and jcs fail at the first bad byte and
 * leave the buffer as it was. */
static void test_invalid_text(void) {
    jetjson_error err;
    jetjson_buffer out = JETJSON_BUFFER_INIT;
    jetjson_write_options go = {JETJSON_PROFILE_GO, 0, 0, 0, 0, 0}, compact = {0};
    CHECK_OK(jetjson_escape("a\xff" "b", 3, &go, &out, &err), err);
    CHECK_BYTES(out.data, out.len, "a\\ufffdb", 8, "go repairs");
    for (size_t at = 65530; at < 65540; at++) {
        /* The bad byte on either side of the first piece boundary. */
        str_t in = {0};
        for (size_t i = 0; i < at; i++)
            str_put(&in, "y", 1);
        str_put(&in, "\xe2\x82", 2); /* a truncated euro sign */
        str_puts(&in, "zz");
        out.len = 5;
        jetjson_status st = jetjson_escape(in.data, in.len, &compact, &out, &err);
        CHECK(st == JETJSON_ERR_VALUE && out.len == 5, "compact at %zu: %d, len %zu", at, st, out.len);
        CHECK(err.has_position && err.offset == at, "offset %zu, want %zu (%s)", err.offset, at, err.message);
        out.len = 0;
        CHECK_OK(jetjson_escape(in.data, in.len, &go, &out, &err), err);
        CHECK(out.len == at + 12 + 2 && memcmp(out.data + at, "\\ufffd\\ufffdzz", 14) == 0, "go at %zu: len %zu", at, out.len);
        str_free(&in);
    }
    jetjson_buffer_free(&out);
}

void test_escape(void) {
    test_random_strings();
    test_invalid_text();
}
