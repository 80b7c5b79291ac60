/* Whole documents: validate (limits, positions, JSONTestSuite),
 * canonicalize (JCS vectors, round trips, options), digests (OCI). */
#include <dirent.h>
#include <stdlib.h>

#include "util.h"

#define U(s) ((const unsigned char *)(s))

/* Line and column of `offset`, counted here, byte by byte. */
static void locate(const char *doc, size_t offset, size_t *line, size_t *column) {
    *line = 1;
    size_t start = 0;
    for (size_t i = 0; i < offset; i++)
        if (doc[i] == '\n') {
            (*line)++;
            start = i + 1;
        }
    *column = offset - start + 1;
}

static void expect_error(const char *doc, const jetjson_read_options *r, jetjson_status want, size_t offset) {
    jetjson_error err;
    size_t len = strlen(doc);
    jetjson_status st = jetjson_validate(U(doc), len, r, &err);
    CHECK(st == want, "validate %s: status %d, want %d (%s)", doc, st, want, err.message);
    CHECK(err.status == st && err.message_len > 0, "validate %s: error filled", doc);
    size_t line, column;
    locate(doc, offset, &line, &column);
    CHECK(err.has_position && err.offset == offset && err.line == line && err.column == column,
          "validate %s: at %zu %zu:%zu, want %zu %zu:%zu (%s)", doc, err.offset, err.line, err.column, offset, line, column, err.message);
}

static void test_validate(void) {
    jetjson_error err;
    const char *ok = " {\"a\": [1, 2.5e3, true, null, \"x\"]}\n";
    CHECK_OK(jetjson_validate(U(ok), strlen(ok), NULL, &err), err);
    expect_error("[1,]", NULL, JETJSON_ERR_SYNTAX, 3);
    expect_error("{\n  \"a\": tru\n}", NULL, JETJSON_ERR_SYNTAX, 12);
    expect_error("[1] x", NULL, JETJSON_ERR_SYNTAX, 4);
    expect_error("\"a\x01\"", NULL, JETJSON_ERR_SYNTAX, 2);
    expect_error("[\"\xff\"]", NULL, JETJSON_ERR_SYNTAX, 2);

    /* max_depth: the fourth '[' opens the fourth level. */
    jetjson_read_options depth3 = {3, 0, 0, 0};
    expect_error("[[[[1]]]]", &depth3, JETJSON_ERR_LIMIT, 3);
    CHECK_OK(jetjson_validate(U("[[[1]]]"), 7, &depth3, &err), err);
    /* max_size: refused before parsing, at the limit. */
    jetjson_read_options size5 = {0, 5, 0, 0};
    expect_error("[1,2,3]", &size5, JETJSON_ERR_LIMIT, 5);
    CHECK_OK(jetjson_validate(U("[1,2]"), 5, &size5, &err), err);
    /* Duplicate keys: an error by default, allowed by FIRST and LAST. */
    expect_error("{\"a\":1,\"a\":2}", NULL, JETJSON_ERR_DUPLICATE_KEY, 7);
    jetjson_read_options first = {0, 0, JETJSON_DUPLICATES_FIRST, 0};
    CHECK_OK(jetjson_validate(U("{\"a\":1,\"a\":2}"), 13, &first, &err), err);
    /* A byte order mark: refused unless allowed. */
    expect_error("\xef\xbb\xbf[]", NULL, JETJSON_ERR_SYNTAX, 0);
    jetjson_read_options bom = {0, 0, 0, 1};
    CHECK_OK(jetjson_validate(U("\xef\xbb\xbf[]"), 5, &bom, &err), err);
}

/* Every JSONTestSuite parsing case: y_ valid, n_ refused with a position,
 * i_ either (no crash; ASan watches). */
static void test_jsontestsuite(const char *corpus) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/jsontestsuite/test_parsing", corpus);
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    if (!d)
        return;
    int y = 0, n = 0, i = 0, dup_names = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len;
        unsigned char *doc = read_file(path, &len);
        CHECK(doc != NULL, "read %s", path);
        if (!doc)
            continue;
        jetjson_error err;
        jetjson_status st = jetjson_validate(doc, len, NULL, &err);
        if (e->d_name[0] == 'y') {
            y++;
            if (st == JETJSON_ERR_DUPLICATE_KEY) {
                /* RFC 8259 allows repeated names; the default policy (I-JSON)
                 * refuses them, LAST accepts them. */
                dup_names++;
                jetjson_read_options last = {0, 0, JETJSON_DUPLICATES_LAST, 0};
                st = jetjson_validate(doc, len, &last, &err);
            }
            CHECK(st == JETJSON_OK, "%s: %s", e->d_name, err.message);
        } else if (e->d_name[0] == 'n') {
            n++;
            CHECK((st == JETJSON_ERR_SYNTAX || st == JETJSON_ERR_LIMIT) && err.has_position && err.offset <= len,
                  "%s: status %d at %zu (%s)", e->d_name, st, err.offset, err.message);
        } else {
            i++;
            CHECK(st != JETJSON_ERR_INTERNAL && st != JETJSON_ERR_ARGUMENT, "%s: status %d", e->d_name, st);
        }
        free(doc);
    }
    closedir(d);
    CHECK(y > 90 && n > 180 && i > 30, "JSONTestSuite cases: %d y, %d n, %d i", y, n, i);
    CHECK(dup_names == 2, "%d y_ files with repeated names", dup_names);
}

static void canon(const char *doc, const jetjson_write_options *o, const char *want) {
    jetjson_error err;
    jetjson_buffer b = JETJSON_BUFFER_INIT;
    CHECK_OK(jetjson_canonicalize(U(doc), strlen(doc), o, NULL, &b, &err), err);
    CHECK_BYTES(b.data, b.len, want, strlen(want), doc);
    jetjson_buffer_free(&b);
}

/* Options, with expected bytes from ../shared/spec/output-rules.md. */
static void test_canonicalize_options(void) {
    jetjson_write_options compact = {JETJSON_PROFILE_COMPACT, 0, 0, 0, 0, 0}, go = {JETJSON_PROFILE_GO, 0, 0, 0, 0, 0}, jcs = {JETJSON_PROFILE_JCS, 0, 0, 0, 0, 0};
    const char *doc = "{\"b\":\"<a&b>\",\"a\":[1e21,-0.0,0.000001,1e-7]}";
    canon(doc, &compact, "{\"b\":\"<a&b>\",\"a\":[1e+21,-0.0,1e-6,1e-7]}");
    canon(doc, &go, "{\"a\":[1e+21,-0,0.000001,1e-7],\"b\":\"\\u003ca\\u0026b\\u003e\"}");
    canon(doc, &jcs, "{\"a\":[1e+21,0,0.000001,1e-7],\"b\":\"<a&b>\"}");
    jetjson_write_options go_nohtml = {JETJSON_PROFILE_GO, 0, JETJSON_HTML_OFF, 0, 0, 0};
    canon("[\"<\xe2\x80\xa8>\"]", &go_nohtml, "[\"<\\u2028>\"]");
    jetjson_write_options go_keep = {JETJSON_PROFILE_GO, JETJSON_KEYS_KEEP, 0, 0, 0, 0};
    canon("{\"b\":1,\"a\":2}", &go_keep, "{\"b\":1,\"a\":2}");
    jetjson_write_options compact_sorted = {JETJSON_PROFILE_COMPACT, JETJSON_KEYS_SORTED, 0, 0, 0, 0};
    canon("{\"b\":1,\"a\":{\"d\":1,\"c\":2}}", &compact_sorted, "{\"a\":{\"c\":2,\"d\":1},\"b\":1}");
    jetjson_write_options ascii = {JETJSON_PROFILE_COMPACT, 0, 0, 1, 0, 0};
    canon("[\"\xc3\xa9\xf0\x9f\x98\x80\"]", &ascii, "[\"\\u00e9\\ud83d\\ude00\"]");
    jetjson_write_options indent = {JETJSON_PROFILE_COMPACT, 0, 0, 0, 2, 0};
    canon("{\"a\":[1,{}],\"b\":[]}", &indent, "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}");
    /* jcs sorts by UTF-16 code units: U+FB01 (EF AC 81) after U+1F600
     * (surrogates D83D..), the reverse of the UTF-8 byte order. */
    canon("{\"\xef\xac\x81\":1,\"\xf0\x9f\x98\x80\":2}", &jcs, "{\"\xf0\x9f\x98\x80\":2,\"\xef\xac\x81\":1}");
    jetjson_write_options go_sorted = {JETJSON_PROFILE_GO, 0, 0, 0, 0, 0};
    canon("{\"\xef\xac\x81\":1,\"\xf0\x9f\x98\x80\":2}", &go_sorted, "{\"\xef\xac\x81\":1,\"\xf0\x9f\x98\x80\":2}");

    /* Read options apply: duplicates kept first or last. */
    jetjson_error err;
    jetjson_buffer b = JETJSON_BUFFER_INIT;
    jetjson_read_options last = {0, 0, JETJSON_DUPLICATES_LAST, 0};
    CHECK_OK(jetjson_canonicalize(U("{\"a\":1,\"a\":2}"), 13, &compact, &last, &b, &err), err);
    CHECK_BYTES(b.data, b.len, "{\"a\":2}", 7, "duplicates LAST");

    /* Appends after what the buffer holds; on failure len is as before. */
    CHECK_OK(jetjson_canonicalize(U(" [ 1 ] "), 7, &compact, NULL, &b, &err), err);
    CHECK_BYTES(b.data, b.len, "{\"a\":2}[1]", 10, "appended");
    CHECK(jetjson_canonicalize(U("[1,"), 3, &compact, NULL, &b, &err) == JETJSON_ERR_SYNTAX && b.len == 10, "syntax error keeps len");
    CHECK(err.has_position && err.offset == 3, "position of the end: %zu", err.offset);
    /* A literal beyond the double range is refused where it is read. */
    CHECK(jetjson_canonicalize(U("{\"a\":[0,1e400]}"), 15, &jcs, NULL, &b, &err) != JETJSON_OK && b.len == 10,
          "1e400: %d", err.status);
    CHECK(err.has_position && err.offset == 8, "1e400 refused at its offset: %s (%zu)", err.message, err.offset);
    /* Also late in a long document: the buffer keeps its length. */
    str_t big = {0};
    str_puts(&big, "[");
    for (int i = 0; i < 5000; i++)
        str_puts(&big, "\"0123456789abcdef\",");
    str_puts(&big, "1e400]");
    CHECK(jetjson_canonicalize(U(big.data), big.len, &jcs, NULL, &b, &err) == JETJSON_ERR_VALUE && b.len == 10,
          "late failure: %d, len %zu", err.status, b.len);
    str_free(&big);
    /* An integer with no double reads, and jcs refuses it when writing: the
     * error has its path and its place in the input (outside tester, stop
     * 51: the path alone before). */
    str_t huge = {0};
    str_puts(&huge, "[0,\n 1");
    for (int i = 0; i < 400; i++)
        str_puts(&huge, "0");
    str_puts(&huge, "]");
    CHECK(jetjson_canonicalize(U(huge.data), huge.len, &jcs, NULL, &b, &err) == JETJSON_ERR_VALUE && b.len == 10,
          "no double: %d, len %zu", err.status, b.len);
    CHECK(err.has_position && err.offset == 5 && err.line == 2 && err.column == 2 &&
              strncmp(err.message, "$[1]: number 1000", 17) == 0,
          "no double placed: %s at %d %zu", err.message, err.has_position, err.offset);
    str_free(&huge);
    jetjson_buffer_free(&b);
}

/* max_write_depth: 0 is 512, the read default; a document read deeper
 * (max_depth raised) is refused when written, naming the limit and placed
 * at the first container too deep, unless max_write_depth is raised too. */
static void test_write_depth(void) {
    jetjson_error err;
    jetjson_buffer b = JETJSON_BUFFER_INIT;
    jetjson_digest d;
    str_t at = {0}, over = {0};
    for (int i = 0; i < 512; i++)
        str_puts(&at, "[");
    for (int i = 0; i < 512; i++)
        str_puts(&at, "]");
    str_puts(&over, "[");
    str_put(&over, at.data, at.len);
    str_puts(&over, "]");
    jetjson_read_options deep = {600, 0, 0, 0};
    int profiles[] = {JETJSON_PROFILE_COMPACT, JETJSON_PROFILE_GO, JETJSON_PROFILE_JCS};
    for (int k = 0; k < 3; k++) {
        int p = profiles[k];
        jetjson_write_options o = {p, 0, 0, 0, 0, 0};
        b.len = 0;
        CHECK_OK(jetjson_canonicalize(U(at.data), at.len, &o, NULL, &b, &err), err);
        CHECK_BYTES(b.data, b.len, at.data, at.len, "512 levels");
        b.len = 0;
        CHECK(jetjson_canonicalize(U(over.data), over.len, &o, &deep, &b, &err) == JETJSON_ERR_LIMIT && b.len == 0,
              "profile %d: 513 levels: %d", p, err.status);
        /* Placed at the 513th '[' of the input (outside tester, stop 48:
         * no position before). */
        CHECK(strcmp(err.message, "nesting deeper than max_write_depth 512") == 0 && err.has_position && err.offset == 512 &&
                  err.line == 1 && err.column == 513,
              "message: %s at %d %zu", err.message, err.has_position, err.offset);
        CHECK(jetjson_digest_canonical(U(over.data), over.len, &o, &deep, JETJSON_SHA256, &d, &err) == JETJSON_ERR_LIMIT &&
                  err.has_position && err.offset == 512,
              "digest of 513 levels: %d at %zu", err.status, err.offset);
        o.max_write_depth = 513;
        CHECK_OK(jetjson_canonicalize(U(over.data), over.len, &o, &deep, &b, &err), err);
        CHECK_BYTES(b.data, b.len, over.data, over.len, "513 levels with max_write_depth 513");
    }
    str_free(&at);
    str_free(&over);
    jetjson_buffer_free(&b);
}

/* RFC 8785's vectors: canonicalize(input/X) == output/X, byte for byte. */
static void test_jcs_vectors(const char *corpus) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/jcs/input", corpus);
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    if (!d)
        return;
    jetjson_write_options jcs = {JETJSON_PROFILE_JCS, 0, 0, 0, 0, 0};
    int cases = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char in_path[8192], out_path[8192];
        snprintf(in_path, sizeof in_path, "%s/jcs/input/%s", corpus, e->d_name);
        snprintf(out_path, sizeof out_path, "%s/jcs/output/%s", corpus, e->d_name);
        size_t in_len, out_len;
        unsigned char *in = read_file(in_path, &in_len), *want = read_file(out_path, &out_len);
        CHECK(in && want, "read %s", e->d_name);
        if (in && want) {
            jetjson_error err;
            jetjson_buffer b = JETJSON_BUFFER_INIT;
            CHECK_OK(jetjson_canonicalize(in, in_len, &jcs, NULL, &b, &err), err);
            CHECK_BYTES(b.data, b.len, want, out_len, e->d_name);
            /* The digest hashed while writing equals the digest of the bytes. */
            jetjson_digest streamed, whole;
            CHECK_OK(jetjson_digest_canonical(in, in_len, &jcs, NULL, JETJSON_SHA512, &streamed, &err), err);
            CHECK_OK(jetjson_digest_bytes(want, out_len, JETJSON_SHA512, &whole, &err), err);
            CHECK(strcmp(streamed.text, whole.text) == 0 && streamed.len == 135, "%s: %s vs %s", e->d_name, streamed.text, whole.text);
            jetjson_buffer_free(&b);
            cases++;
        }
        free(in);
        free(want);
    }
    closedir(d);
    CHECK(cases == 6, "%d JCS vectors", cases);
}

/* nativejson-roundtrip: compact(decode(b)) == b. */
static void test_roundtrip(const char *corpus) {
    int cases = 0;
    for (int i = 1; i <= 27; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/nativejson-roundtrip/roundtrip%02d.json", corpus, i);
        size_t len;
        unsigned char *doc = read_file(path, &len);
        CHECK(doc != NULL, "read %s", path);
        if (!doc)
            continue;
        jetjson_error err;
        jetjson_buffer b = JETJSON_BUFFER_INIT;
        jetjson_write_options compact = {JETJSON_PROFILE_COMPACT, 0, 0, 0, 0, 0};
        CHECK_OK(jetjson_canonicalize(doc, len, &compact, NULL, &b, &err), err);
        /* These files predate serde_json 1.0.147, which (like Go and
         * ECMAScript) writes '+' in positive exponents; compact follows it. */
        str_t want = {0};
        char *e308 = strstr((char *)doc, "e308");
        if (e308) {
            str_put(&want, doc, (size_t)(e308 - (char *)doc) + 1);
            str_puts(&want, "+");
            str_put(&want, e308 + 1, len - (size_t)(e308 + 1 - (char *)doc));
        } else {
            str_put(&want, doc, len);
        }
        CHECK_BYTES(b.data, b.len, want.data, want.len, path);
        str_free(&want);
        jetjson_buffer_free(&b);
        free(doc);
        cases++;
    }
    CHECK(cases == 27, "%d round trips", cases);
}

/* base64url (RFC 4648 section 5, no padding) into `out`; -1 if invalid. */
static long base64url_decode(const char *s, size_t n, unsigned char *out) {
    static const char *A = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    unsigned bits = 0, have = 0;
    long len = 0;
    for (size_t i = 0; i < n; i++) {
        const char *p = memchr(A, s[i], 64);
        if (!p || !s[i])
            return -1;
        bits = bits << 6 | (unsigned)(p - A);
        have += 6;
        if (have >= 8) {
            have -= 8;
            out[len++] = (unsigned char)(bits >> have);
        }
    }
    return len;
}

/* A visitor that finds the string value of a key at any depth (the
 * first one), and the integer value of another. */
typedef struct {
    const char *want_key;
    int next_is_it;
    str_t found;
    int done;
    const char *want_int_key;
    int next_is_int;
    long long int_value;
} finder;

static int find_key(void *u, const char *s, size_t n) {
    finder *f = u;
    f->next_is_it = !f->done && strlen(f->want_key) == n && memcmp(s, f->want_key, n) == 0;
    f->next_is_int = f->want_int_key && strlen(f->want_int_key) == n && memcmp(s, f->want_int_key, n) == 0;
    return 0;
}

static int find_string(void *u, const char *s, size_t n) {
    finder *f = u;
    if (f->next_is_it) {
        str_put(&f->found, s, n);
        f->done = 1;
    }
    f->next_is_it = f->next_is_int = 0;
    return 0;
}

static int find_number(void *u, const jetjson_number *num) {
    finder *f = u;
    if (f->next_is_int && num->kind == JETJSON_NUMBER_I64)
        f->int_value = num->i64;
    f->next_is_it = f->next_is_int = 0;
    return 0;
}

/* The Docker schema1 payload digest: bytes [0, formatLength) of the file
 * plus base64url(formatTail), both from signatures[0].protected. */
static void schema1_payload_digest(const unsigned char *doc, size_t len, jetjson_digest *out) {
    jetjson_error err;
    jetjson_visitor v = {0};
    v.key = find_key;
    v.string = find_string;
    v.number = find_number;
    finder f = {"protected", 0, {0}, 0, NULL, 0, -1};
    CHECK_OK(jetjson_parse(doc, len, NULL, &v, &f, &err), err);
    CHECK(f.done, "signatures[0].protected found");
    unsigned char *header = malloc(f.found.len + 1);
    long header_len = base64url_decode(f.found.data, f.found.len, header);
    CHECK(header_len > 0, "protected header decodes");
    finder g = {"formatTail", 0, {0}, 0, "formatLength", 0, -1};
    CHECK_OK(jetjson_parse(header, (size_t)header_len, NULL, &v, &g, &err), err);
    CHECK(g.done && g.int_value > 0 && (size_t)g.int_value <= len, "formatLength %lld", g.int_value);
    str_t payload = {0};
    if (g.done && g.int_value > 0 && (size_t)g.int_value <= len) {
        str_put(&payload, doc, (size_t)g.int_value);
        unsigned char tail[64];
        long tail_len = g.found.len < 80 ? base64url_decode(g.found.data, g.found.len, tail) : -1;
        CHECK(tail_len >= 0, "formatTail decodes");
        if (tail_len > 0)
            str_put(&payload, tail, (size_t)tail_len);
    }
    CHECK_OK(jetjson_digest_bytes((const unsigned char *)payload.data, payload.len, JETJSON_SHA256, out, &err), err);
    str_free(&payload);
    str_free(&f.found);
    str_free(&g.found);
    free(header);
}

/* oci/CATALOG.tsv: every file's sha256, and every digest upstream asserts. */
static void test_oci_digests(const char *corpus) {
    char path[4096];
    snprintf(path, sizeof path, "%s/oci/CATALOG.tsv", corpus);
    size_t len;
    char *tsv = (char *)read_file(path, &len);
    CHECK(tsv != NULL, "read %s", path);
    if (!tsv)
        return;
    int rows = 0, upstream = 0;
    char *save = NULL;
    for (char *line = strtok_r(tsv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *cols[7];
        int n = 0;
        for (char *p = line; n < 7; n++) {
            cols[n] = p;
            char *tab = strchr(p, '\t');
            if (!tab) {
                n++;
                break;
            }
            *tab = 0;
            p = tab + 1;
        }
        if (n < 6 || strcmp(cols[0], "file") == 0)
            continue;
        char file[8192];
        snprintf(file, sizeof file, "%s/oci/%s", corpus, cols[0]);
        size_t flen;
        unsigned char *doc = read_file(file, &flen);
        CHECK(doc != NULL, "read %s", file);
        if (!doc)
            continue;
        jetjson_error err;
        jetjson_digest d;
        CHECK_OK(jetjson_digest_bytes(doc, flen, JETJSON_SHA256, &d, &err), err);
        CHECK(strcmp(d.text, cols[2]) == 0 && d.len == strlen(cols[2]), "%s: %s, catalog %s", cols[0], d.text, cols[2]);
        CHECK(flen == (size_t)strtoul(cols[1], NULL, 10), "%s: size", cols[0]);
        /* Every document decodes. */
        CHECK_OK(jetjson_validate(doc, flen, NULL, &err), err);
        if (strcmp(cols[4], "-") != 0) {
            upstream++;
            jetjson_digest want;
            if (strstr(cols[0], "v2s1.manifest.json"))
                schema1_payload_digest(doc, flen, &want);
            else
                want = d;
            CHECK(strcmp(want.text, cols[4]) == 0, "%s: upstream digest %s, computed %s", cols[0], cols[4], want.text);
        }
        free(doc);
        rows++;
    }
    free(tsv);
    CHECK(rows == 28 && upstream >= 13, "%d catalog rows, %d upstream digests", rows, upstream);

    /* Known answers (FIPS 180-4 examples) for both algorithms. */
    jetjson_error err;
    jetjson_digest d;
    CHECK_OK(jetjson_digest_bytes(U("abc"), 3, JETJSON_SHA256, &d, &err), err);
    CHECK(strcmp(d.text, "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") == 0, "%s", d.text);
    CHECK_OK(jetjson_digest_bytes(U("abc"), 3, JETJSON_SHA512, &d, &err), err);
    CHECK(strcmp(d.text, "sha512:ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                         "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f") == 0, "%s", d.text);
    /* The canonical digest hashes the profile's bytes, not the input's. */
    jetjson_digest a, b;
    jetjson_write_options go = {JETJSON_PROFILE_GO, 0, 0, 0, 0, 0};
    CHECK_OK(jetjson_digest_canonical(U("{ \"b\": 1, \"a\": 2 }"), 18, &go, NULL, JETJSON_SHA256, &a, &err), err);
    CHECK_OK(jetjson_digest_bytes(U("{\"a\":2,\"b\":1}"), 13, JETJSON_SHA256, &b, &err), err);
    CHECK(strcmp(a.text, b.text) == 0, "canonical digest %s vs %s", a.text, b.text);
    CHECK(jetjson_digest_canonical(U("{"), 1, &go, NULL, JETJSON_SHA256, &a, &err) == JETJSON_ERR_SYNTAX && err.has_position,
          "digest of invalid JSON");
}

void test_documents(const char *corpus) {
    test_validate();
    test_jsontestsuite(corpus);
    test_canonicalize_options();
    test_write_depth();
    test_jcs_vectors(corpus);
    test_roundtrip(corpus);
    test_oci_digests(corpus);
}
