/* The callback reader: corpus documents parsed into callbacks that drive a
 * writer come out as jetjson_canonicalize writes them; numbers arrive as
 * value and literal text; a callback can stop the parse; limits hold. */
#include <stdlib.h>

#include "util.h"

#define U(s) ((const unsigned char *)(s))

/* Callbacks that replay every token into a writer. */
static int r_null(void *w) { return jetjson_writer_null(w, NULL); }
static int r_bool(void *w, int v) { return jetjson_writer_bool(w, v, NULL); }
static int r_string(void *w, const char *s, size_t n) { return jetjson_writer_string(w, s, n, NULL); }
static int r_key(void *w, const char *s, size_t n) { return jetjson_writer_key(w, s, n, NULL); }
static int r_bo(void *w) { return jetjson_writer_begin_object(w, NULL); }
static int r_eo(void *w) { return jetjson_writer_end_object(w, NULL); }
static int r_ba(void *w) { return jetjson_writer_begin_array(w, NULL); }
static int r_ea(void *w) { return jetjson_writer_end_array(w, NULL); }
static int r_number(void *w, const jetjson_number *n) {
    switch (n->kind) {
    case JETJSON_NUMBER_I64: return jetjson_writer_i64(w, n->i64, NULL);
    case JETJSON_NUMBER_U64: return jetjson_writer_u64(w, n->u64, NULL);
    case JETJSON_NUMBER_F64: return jetjson_writer_double(w, n->f64, NULL);
    default: return jetjson_writer_raw(w, (const unsigned char *)n->text, n->text_len, NULL);
    }
}

static const jetjson_visitor REPLAY = {r_null, r_bool, r_number, r_string, r_key, r_bo, r_eo, r_ba, r_ea};

static void replay_file(const char *corpus, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", corpus, name);
    size_t len;
    unsigned char *doc = read_file(path, &len);
    CHECK(doc != NULL, "read %s", path);
    if (!doc)
        return;
    jetjson_write_options layouts[] = {{JETJSON_PROFILE_COMPACT, 0, 0, 0, 0, 0}, {JETJSON_PROFILE_GO, 0, 0, 0, 0, 0}, {JETJSON_PROFILE_JCS, 0, 0, 0, 0, 0}};
    for (int l = 0; l < 3; l++) {
        jetjson_error err;
        jetjson_buffer got = JETJSON_BUFFER_INIT, want = JETJSON_BUFFER_INIT;
        jetjson_writer *w;
        CHECK_OK(jetjson_writer_new(&layouts[l], &got, &w, &err), err);
        CHECK_OK(jetjson_parse(doc, len, NULL, &REPLAY, w, &err), err);
        CHECK_OK(jetjson_writer_finish(w, &err), err);
        jetjson_writer_free(w);
        CHECK_OK(jetjson_canonicalize(doc, len, &layouts[l], NULL, &want, &err), err);
        char what[256];
        snprintf(what, sizeof what, "%s in profile %d", name, l);
        CHECK_BYTES(got.data, got.len, want.data, want.len, what);
        jetjson_buffer_free(&got);
        jetjson_buffer_free(&want);
    }
    free(doc);
}

/* Numbers: kinds, values and literal text. */
typedef struct {
    jetjson_number n[16];
    char text[16][64];
    int count;
} numbers;

static int keep_number(void *u, const jetjson_number *n) {
    numbers *s = u;
    if (s->count < 16) {
        s->n[s->count] = *n;
        snprintf(s->text[s->count], 64, "%.*s", (int)n->text_len, n->text);
        s->n[s->count].text = NULL;
        s->count++;
    }
    return 0;
}

static void test_numbers(void) {
    const char *doc = "[-0, 1.50, 123456789012345678901234567890, 18446744073709551615, 9223372036854775808, -9223372036854775809, 12, -7, 2.5E-3]";
    jetjson_visitor v = {0};
    v.number = keep_number;
    numbers s = {0};
    jetjson_error err;
    CHECK_OK(jetjson_parse(U(doc), strlen(doc), NULL, &v, &s, &err), err);
    CHECK(s.count == 9, "%d numbers", s.count);
    const char *texts[] = {"-0", "1.50", "123456789012345678901234567890", "18446744073709551615", "9223372036854775808", "-9223372036854775809", "12", "-7", "2.5E-3"};
    int kinds[] = {JETJSON_NUMBER_F64, JETJSON_NUMBER_F64, JETJSON_NUMBER_BIG, JETJSON_NUMBER_U64, JETJSON_NUMBER_U64,
                   JETJSON_NUMBER_BIG, JETJSON_NUMBER_I64, JETJSON_NUMBER_I64, JETJSON_NUMBER_F64};
    int integers[] = {1, 0, 1, 1, 1, 1, 1, 1, 0};
    for (int i = 0; i < 9 && i < s.count; i++) {
        CHECK(strcmp(s.text[i], texts[i]) == 0, "number %d text %s", i, s.text[i]);
        CHECK(s.n[i].kind == kinds[i], "number %d (%s) kind %d, want %d", i, texts[i], s.n[i].kind, kinds[i]);
        CHECK(s.n[i].is_integer == integers[i], "number %d is_integer %d", i, s.n[i].is_integer);
        /* f64 is always the nearest double of the text. */
        CHECK(s.n[i].f64 == strtod(texts[i], NULL), "number %d f64 %.17g", i, s.n[i].f64);
    }
    CHECK(s.n[0].f64 == 0 && 1 / s.n[0].f64 < 0, "-0 is negative zero");
    CHECK(s.n[3].u64 == UINT64_MAX && s.n[4].u64 == 9223372036854775808ULL, "u64 values");
    CHECK(s.n[6].i64 == 12 && s.n[7].i64 == -7, "i64 values");
    /* A literal beyond the double range is refused, at its place. */
    const char *huge = "[1, 1e400]";
    numbers h = {0};
    CHECK(jetjson_parse(U(huge), strlen(huge), NULL, &v, &h, &err) != JETJSON_OK, "1e400 refused");
    CHECK(err.has_position && err.offset == 4, "1e400 at offset 4: %zu %s", err.offset, err.message);
    /* jetjson_validate refuses it too, with the status its header names. */
    CHECK(jetjson_validate(U(huge), strlen(huge), NULL, &err) == JETJSON_ERR_VALUE && err.has_position && err.offset == 4,
          "validate 1e400: %d at %zu %s", err.status, err.offset, err.message);
}

/* Strings arrive decoded, NUL bytes included; keys too. */
typedef struct {
    str_t strings;
    int stop_at; /* the string callback returning 9 at this call (1-based) */
    int calls;
} strings;

static int keep_string(void *u, const char *s, size_t n) {
    strings *t = u;
    t->calls++;
    if (t->calls == t->stop_at)
        return 9;
    str_put(&t->strings, s, n);
    str_put(&t->strings, "|", 1);
    return 0;
}

static void test_strings_and_stop(void) {
    const char *doc = "{\"k\\u00e9y\": [\"a\\u0000b\\n\", \"\\ud83d\\ude00\", \"plain\"]}";
    jetjson_visitor v = {0};
    v.string = keep_string;
    v.key = keep_string;
    strings t = {{0}, 0, 0};
    jetjson_error err;
    CHECK_OK(jetjson_parse(U(doc), strlen(doc), NULL, &v, &t, &err), err);
    const char want[] = "k\xc3\xa9y|a\0b\n|\xf0\x9f\x98\x80|plain|";
    CHECK_BYTES(t.strings.data, t.strings.len, want, sizeof want - 1, "decoded strings");
    str_free(&t.strings);

    /* A callback returning non-zero stops the parse at its token. */
    strings s = {{0}, 3, 0};
    jetjson_status st = jetjson_parse(U(doc), strlen(doc), NULL, &v, &s, &err);
    const char *third = strstr(doc, "\"\\ud83d");
    CHECK(st == JETJSON_ERR_CALLBACK && err.has_position && err.offset == (size_t)(third - doc),
          "stop: status %d at %zu, want %zu (%s)", st, err.offset, (size_t)(third - doc), err.message);
    CHECK(strstr(err.message, "returned 9") != NULL, "message: %s", err.message);
    CHECK(s.calls == 3, "no callback after the stop: %d", s.calls);
    str_free(&s.strings);

    /* No callbacks at all: a validation. */
    jetjson_visitor none = {0};
    CHECK_OK(jetjson_parse(U(doc), strlen(doc), NULL, &none, NULL, &err), err);
}

static int count_event(void *u) {
    (*(int *)u)++;
    return 0;
}

static void test_limits(void) {
    jetjson_visitor v = {0};
    v.begin_array = count_event;
    int opened = 0;
    jetjson_error err;
    jetjson_read_options depth2 = {2, 0, 0, 0};
    jetjson_status st = jetjson_parse(U("[[[]]]"), 6, &depth2, &v, &opened, &err);
    CHECK(st == JETJSON_ERR_LIMIT && err.offset == 2 && opened == 2, "depth: %d at %zu, %d opened", st, err.offset, opened);
    jetjson_read_options size3 = {0, 3, 0, 0};
    CHECK(jetjson_parse(U("[1,2]"), 5, &size3, &v, &opened, &err) == JETJSON_ERR_LIMIT, "size");
    CHECK(jetjson_parse(U("{\"a\":1,\"a\":2}"), 13, NULL, &v, &opened, &err) == JETJSON_ERR_DUPLICATE_KEY, "duplicates");
    jetjson_read_options last = {0, 0, JETJSON_DUPLICATES_LAST, 0};
    CHECK_OK(jetjson_parse(U("{\"a\":1,\"a\":2}"), 13, &last, &v, &opened, &err), err);
    CHECK(jetjson_parse(U("[1 2]"), 5, NULL, &v, &opened, &err) == JETJSON_ERR_SYNTAX && err.offset == 3, "syntax at %zu", err.offset);
    /* 100000 nested arrays: refused by depth, without recursion. */
    size_t n = 100000;
    unsigned char *deep = malloc(n);
    memset(deep, '[', n);
    opened = 0;
    CHECK(jetjson_parse(deep, n, NULL, &v, &opened, &err) == JETJSON_ERR_LIMIT && opened == 512, "deep: %d opened", opened);
    free(deep);
}

void test_reader(const char *corpus) {
    replay_file(corpus, "bench/nativejson-benchmark/twitter.json");
    replay_file(corpus, "bench/nativejson-benchmark/citm_catalog.json");
    replay_file(corpus, "bench/nativejson-benchmark/canada.json");
    replay_file(corpus, "bench/simdjson/numbers.json");
    replay_file(corpus, "bench/simdjson/twitterescaped.json");
    replay_file(corpus, "jsontestsuite/test_parsing/i_number_very_big_negative_int.json");
    test_numbers();
    test_strings_and_stop();
    test_limits();
}
