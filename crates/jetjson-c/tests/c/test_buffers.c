/* Buffers (ownership, growth, failure), the error struct, the version. */
#include <stdlib.h>

#include "util.h"

static void test_version(void) {
    const char *v = jetjson_version();
    CHECK(v != NULL && strcmp(v, JETJSON_TEST_VERSION) == 0, "version %s, built as %s", v ? v : "(null)", JETJSON_TEST_VERSION);
}

static void test_error_struct(void) {
    jetjson_error err;
    /* err may be uninitialised: every field is written, on success too. */
    memset(&err, 0xAB, sizeof err);
    CHECK_OK(jetjson_validate((const unsigned char *)"[1]", 3, NULL, &err), err);
    CHECK(err.status == JETJSON_OK && err.has_position == 0 && err.message_len == 0 && err.message[0] == 0,
          "success resets the error (status %d, len %zu)", err.status, err.message_len);
    /* Functions accept a NULL err and still return the status. */
    CHECK(jetjson_validate((const unsigned char *)"[1,]", 4, NULL, NULL) == JETJSON_ERR_SYNTAX, "NULL err");

    /* A long message is cut at a character boundary and NUL-terminated:
     * a repeated key of 600 bytes of 'é' (2 bytes each) is quoted in it. */
    str_t doc = {0};
    str_puts(&doc, "{\"");
    for (int i = 0; i < 300; i++)
        str_puts(&doc, "\xc3\xa9");
    str_puts(&doc, "\":1,\"");
    for (int i = 0; i < 300; i++)
        str_puts(&doc, "\xc3\xa9");
    str_puts(&doc, "\":2}");
    jetjson_status st = jetjson_validate((const unsigned char *)doc.data, doc.len, NULL, &err);
    CHECK(st == JETJSON_ERR_DUPLICATE_KEY, "status %d", st);
    CHECK(err.message_len <= JETJSON_MESSAGE_MAX - 1 && err.message[err.message_len] == 0, "message_len %zu", err.message_len);
    CHECK(strlen(err.message) == err.message_len, "NUL at message_len");
    /* The last character is whole: the cut never leaves a lead byte alone. */
    unsigned char last = (unsigned char)err.message[err.message_len - 1];
    CHECK(last < 0x80 || (last & 0xC0) == 0x80, "cut inside a character (last byte %02x)", last);
    if ((last & 0xC0) == 0x80)
        CHECK((unsigned char)err.message[err.message_len - 2] == 0xC3, "an é is cut in half");
    str_free(&doc);
}

static void test_buffer_rules(void) {
    jetjson_error err;
    jetjson_buffer b = JETJSON_BUFFER_INIT;

    CHECK_OK(jetjson_buffer_reserve(&b, 100, &err), err);
    CHECK(b.data != NULL && b.cap >= 100 && b.len == 0, "reserve from empty: cap %zu", b.cap);
    size_t cap = b.cap;
    CHECK_OK(jetjson_buffer_reserve(&b, 10, &err), err);
    CHECK(b.cap == cap, "a reserve that fits does not grow");

    /* Failure leaves the buffer as it was. */
    unsigned char *data = b.data;
    CHECK(jetjson_buffer_reserve(&b, SIZE_MAX, &err) == JETJSON_ERR_NO_MEMORY, "SIZE_MAX: %d", err.status);
    CHECK(err.status == JETJSON_ERR_NO_MEMORY && err.message_len > 0, "message: %s", err.message);
    CHECK(b.data == data && b.cap == cap && b.len == 0, "unchanged after NO_MEMORY");
    jetjson_buffer_free(&b);
    CHECK(b.data == NULL && b.len == 0 && b.cap == 0, "free resets the buffer");
    jetjson_buffer_free(&b); /* twice is harmless once reset */
    jetjson_buffer_free(NULL);

    /* Inconsistent buffers are refused, not trusted. */
    jetjson_buffer bad = {NULL, 0, 16};
    CHECK(jetjson_buffer_reserve(&bad, 1, &err) == JETJSON_ERR_ARGUMENT, "NULL data with cap");
    unsigned char small[4];
    jetjson_buffer bad2 = {small, 8, 4};
    CHECK(jetjson_buffer_reserve(&bad2, 1, &err) == JETJSON_ERR_ARGUMENT, "len > cap");
    CHECK(jetjson_buffer_reserve(NULL, 1, &err) == JETJSON_ERR_ARGUMENT, "NULL buffer");
    CHECK(jetjson_escape("x", 1, NULL, &bad, &err) == JETJSON_ERR_ARGUMENT, "escape into an inconsistent buffer");

    /* A block the caller allocated with malloc is grown with realloc, its
     * bytes kept, and may be released with free() (ASan checks the pair). */
    jetjson_buffer own = {malloc(3), 3, 3};
    memcpy(own.data, "ab,", 3);
    CHECK_OK(jetjson_escape("\"x\"", 3, NULL, &own, &err), err);
    CHECK_BYTES(own.data, own.len, "ab,\\\"x\\\"", 8, "appended to a malloc'd block");
    free(own.data);

    /* One buffer reused across calls: set len = 0, memory stays. */
    jetjson_buffer r = JETJSON_BUFFER_INIT;
    for (int i = 0; i < 3; i++) {
        r.len = 0;
        CHECK_OK(jetjson_escape("tab\t", 4, NULL, &r, &err), err);
        CHECK_BYTES(r.data, r.len, "tab\\t", 5, "reused buffer");
    }
    jetjson_buffer_free(&r);
}

static void test_null_arguments(void) {
    jetjson_error err;
    jetjson_buffer b = JETJSON_BUFFER_INIT;
    jetjson_digest d;
    /* NULL with a length is refused; NULL with length 0 is the empty input. */
    CHECK(jetjson_validate(NULL, 3, NULL, &err) == JETJSON_ERR_ARGUMENT, "NULL json");
    CHECK(jetjson_validate(NULL, 0, NULL, &err) == JETJSON_ERR_SYNTAX && err.has_position && err.offset == 0,
          "empty input: %s", err.message);
    CHECK(jetjson_canonicalize(NULL, 2, NULL, NULL, &b, &err) == JETJSON_ERR_ARGUMENT, "canonicalize NULL json");
    CHECK(jetjson_canonicalize((const unsigned char *)"1", 1, NULL, NULL, NULL, &err) == JETJSON_ERR_ARGUMENT, "NULL out");
    CHECK(jetjson_digest_canonical((const unsigned char *)"1", 1, NULL, NULL, JETJSON_SHA256, NULL, &err) == JETJSON_ERR_ARGUMENT, "NULL digest");
    CHECK(jetjson_digest_bytes(NULL, 1, JETJSON_SHA256, &d, &err) == JETJSON_ERR_ARGUMENT, "NULL data");
    CHECK(jetjson_escape(NULL, 1, NULL, &b, &err) == JETJSON_ERR_ARGUMENT, "NULL s");
    CHECK(jetjson_escape(NULL, 0, NULL, &b, &err) == JETJSON_OK && b.len == 0, "empty string escapes to nothing");
    CHECK(jetjson_parse((const unsigned char *)"1", 1, NULL, NULL, NULL, &err) == JETJSON_ERR_ARGUMENT, "NULL visitor");
    CHECK(strstr(err.message, "visitor") != NULL, "message names the argument: %s", err.message);
    jetjson_buffer_free(&b);
}

static void test_options_refused(void) {
    jetjson_error err;
    jetjson_buffer b = JETJSON_BUFFER_INIT;
    const unsigned char *doc = (const unsigned char *)"{\"a\":1}";
    struct {
        jetjson_write_options o;
        const char *why;
    } bad[] = {
        {{4, 0, 0, 0, 0, 0}, "profile"},
        {{JETJSON_PROFILE_COMPACT, 3, 0, 0, 0, 0}, "sort_keys"},
        {{JETJSON_PROFILE_COMPACT, 0, -1, 0, 0, 0}, "escape_html"},
        {{JETJSON_PROFILE_COMPACT, 0, 0, 2, 0, 0}, "ascii_only"},
        {{JETJSON_PROFILE_COMPACT, 0, 0, 0, 1025, 0}, "indent"},
        /* Bytes that are hashed or signed name their profile. */
        {{0, 0, 0, 0, 0, 0}, "jetjson_canonicalize needs a profile: set write->profile to JETJSON_PROFILE_COMPACT, JETJSON_PROFILE_GO or JETJSON_PROFILE_JCS"},
        {{JETJSON_PROFILE_JCS, 0, 0, 0, 2, 0}, "indent"},
        {{JETJSON_PROFILE_JCS, 0, 0, 1, 0, 0}, "ascii_only"},
        {{JETJSON_PROFILE_JCS, 0, JETJSON_HTML_ON, 0, 0, 0}, "escape_html"},
        {{JETJSON_PROFILE_JCS, JETJSON_KEYS_KEEP, 0, 0, 0, 0}, "sort_keys = JETJSON_KEYS_KEEP cannot be used with profile jcs: "},
        /* The rule of every front end: what cannot change the bytes. */
        {{JETJSON_PROFILE_JCS, JETJSON_KEYS_SORTED, 0, 0, 0, 0}, "sort_keys = JETJSON_KEYS_SORTED cannot be used with profile jcs: "},
        {{JETJSON_PROFILE_JCS, 0, JETJSON_HTML_OFF, 0, 0, 0}, "escape_html = JETJSON_HTML_OFF cannot be used with profile jcs: "},
        {{JETJSON_PROFILE_GO, 0, JETJSON_HTML_ON, 0, 0, 0}, "escape_html = JETJSON_HTML_ON cannot be used with profile go: "},
        {{JETJSON_PROFILE_COMPACT, 0, JETJSON_HTML_OFF, 0, 0, 0}, "escape_html = JETJSON_HTML_OFF cannot be used with profile compact: "},
        {{JETJSON_PROFILE_COMPACT, JETJSON_KEYS_KEEP, 0, 0, 0, 0}, "sort_keys = JETJSON_KEYS_KEEP cannot be used with profile compact: "},
        {{JETJSON_PROFILE_COMPACT, 0, 0, 0, 0, 1000001}, "max_write_depth must be from 1 to 1000000 (0: 512), got 1000001"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        b.len = 0;
        jetjson_status st = jetjson_canonicalize(doc, 7, &bad[i].o, NULL, &b, &err);
        CHECK(st == JETJSON_ERR_ARGUMENT && b.len == 0, "options #%zu: status %d", i, st);
        CHECK(strstr(err.message, bad[i].why) != NULL, "options #%zu message names %s: %s", i, bad[i].why, err.message);
    }
    /* NULL write options too, for both functions that hash or sign. */
    b.len = 0;
    CHECK(jetjson_canonicalize(doc, 7, NULL, NULL, &b, &err) == JETJSON_ERR_ARGUMENT && b.len == 0, "canonicalize, NULL options");
    CHECK(strstr(err.message, "jetjson_canonicalize needs a profile") != NULL, "%s", err.message);
    jetjson_digest nd;
    jetjson_write_options zero = {0, 0, 0, 0, 0, 0};
    CHECK(jetjson_digest_canonical(doc, 7, &zero, NULL, JETJSON_SHA256, &nd, &err) == JETJSON_ERR_ARGUMENT, "digest, profile 0");
    CHECK(strstr(err.message, "jetjson_digest_canonical needs a profile") != NULL, "%s", err.message);
    CHECK(jetjson_digest_canonical(doc, 7, NULL, NULL, JETJSON_SHA256, &nd, &err) == JETJSON_ERR_ARGUMENT, "digest, NULL options");
    /* The writer and jetjson_escape keep the zeroed struct's compact. */
    jetjson_writer *w;
    CHECK_OK(jetjson_writer_new(&zero, &b, &w, &err), err);
    jetjson_writer_free(w);
    CHECK_OK(jetjson_escape("<", 1, &zero, &b, &err), err);
    CHECK_BYTES(b.data, b.len, "<", 1, "escape with a zeroed struct: compact");
    jetjson_read_options r1 = {0, 0, 7, 0}, r2 = {0, 0, 0, 2};
    CHECK(jetjson_validate(doc, 7, &r1, &err) == JETJSON_ERR_ARGUMENT, "duplicate_keys 7");
    CHECK(jetjson_validate(doc, 7, &r2, &err) == JETJSON_ERR_ARGUMENT, "allow_bom 2");
    jetjson_digest d;
    CHECK(jetjson_digest_bytes(doc, 7, 2, &d, &err) == JETJSON_ERR_ARGUMENT, "algorithm 2");
    /* The edge values themselves are accepted. */
    jetjson_write_options wide = {JETJSON_PROFILE_COMPACT, 0, 0, 0, 16, 1000000};
    CHECK_OK(jetjson_canonicalize(doc, 7, &wide, NULL, &b, &err), err);
    /* So are the options the rule leaves (they change the bytes). */
    jetjson_write_options kept[] = {
        {JETJSON_PROFILE_GO, JETJSON_KEYS_KEEP, JETJSON_HTML_OFF, 1, 2, 1},
        {JETJSON_PROFILE_GO, JETJSON_KEYS_SORTED, 0, 0, 0, 0},
        {JETJSON_PROFILE_COMPACT, JETJSON_KEYS_SORTED, JETJSON_HTML_ON, 1, 2, 0},
        {JETJSON_PROFILE_JCS, 0, 0, 0, 0, 7},
    };
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        CHECK_OK(jetjson_canonicalize(doc, 7, &kept[i], NULL, &b, &err), err);
    jetjson_buffer_free(&b);
    /* One more than the cap of every front end is refused, naming it. */
    jetjson_write_options wider = {JETJSON_PROFILE_COMPACT, 0, 0, 0, 17, 0};
    CHECK(jetjson_canonicalize(doc, 7, &wider, NULL, &b, &err) == JETJSON_ERR_ARGUMENT && b.len == 0, "indent 17");
    CHECK(strstr(err.message, "16") != NULL, "indent message names the cap: %s", err.message);
}

void test_buffers_and_errors(void) {
    test_version();
    test_error_struct();
    test_buffer_rules();
    test_null_arguments();
    test_options_refused();
}
