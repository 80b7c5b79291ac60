/* Shared pieces of the C tests: checks, files, a PRNG, byte strings. */
#ifndef JETJSON_TEST_UTIL_H
#define JETJSON_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jetjson.h"

extern int checks_run;
extern int checks_failed;

/* A check that records a failure with its place and goes on. */
#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        checks_run++;                                                      \
        if (!(cond)) {                                                     \
            checks_failed++;                                               \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, "\n");                                         \
        }                                                                  \
    } while (0)

/* A call that must succeed; prints the error otherwise. */
#define CHECK_OK(call, err)                                                \
    do {                                                                   \
        jetjson_status st_ = (call);                                       \
        CHECK(st_ == JETJSON_OK, "%s -> status %d: %s", #call, st_, (err).message); \
    } while (0)

/* Bytes equal, with both shown (cut) when they differ. */
#define CHECK_BYTES(got, got_len, want, want_len, what)                    \
    do {                                                                   \
        size_t gl_ = (got_len), wl_ = (want_len);                          \
        int same_ = gl_ == wl_ && (gl_ == 0 || memcmp((got), (want), gl_) == 0); \
        CHECK(same_, "%s: got %zu bytes \"%.*s\", want %zu bytes \"%.*s\"", (what), \
              gl_, (int)(gl_ < 300 ? gl_ : 300), (const char *)(got),      \
              wl_, (int)(wl_ < 300 ? wl_ : 300), (const char *)(want));    \
    } while (0)

/* A growable byte string for building expected output. */
typedef struct {
    char *data;
    size_t len, cap;
} str_t;

void str_put(str_t *s, const void *bytes, size_t n);
void str_puts(str_t *s, const char *text);
void str_free(str_t *s);

/* The whole file (malloc'd, caller frees); NULL if it cannot be read. */
unsigned char *read_file(const char *path, size_t *len);

/* xorshift64*: deterministic per seed. */
uint64_t rnd(uint64_t *state);
size_t rnd_below(uint64_t *state, size_t n);

/* The escape set of a profile and options, as the output rules define it. */
typedef struct {
    int html, line_separators, ascii_only;
} escape_set;

escape_set set_of(const jetjson_write_options *o);

/* An independent byte-at-a-time escaper for valid UTF-8 (the tests'
 * reference, written from the output rules, not from the library). */
void ref_escape(escape_set set, const unsigned char *s, size_t n, str_t *out);

/* A random string from pieces that exercise every escape rule. */
void random_text(uint64_t *state, size_t pieces, str_t *out);

/* The test groups. */
void test_buffers_and_errors(void);
void test_documents(const char *corpus);
void test_escape(void);
void test_writer(const char *corpus);
void test_reader(const char *corpus);
void test_threads(void);

#endif
