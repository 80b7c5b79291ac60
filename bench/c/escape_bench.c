/*
 * The C database's string-escaping case, in C: strings of 100 KB, 10 MB and
 * 100 MB where each byte is a quote with probability Q, a control character
 * with probability S and a plain letter otherwise, for (Q, S) = (0, 0),
 * (2%, 1%), (10%, 1%). Contenders, all writing the same bytes (checked
 * before timing):
 *
 *   memcpy        the copy of the input: the floor no escaper can beat
 *   byte          a byte-at-a-time escaper: one table look-up per byte
 *   bulk          a count-then-bulk-copy escaper: a first pass counts the
 *                 output length (and sizes the output exactly); a clean
 *                 string is then one memcpy, otherwise a second pass
 *                 copies each clean run with memcpy and writes the escapes
 *   jetjson       jetjson_escape (compact profile) into a reused
 *                 jetjson_buffer
 *   yyjson        yyjson_mut_write of a one-string document, when built
 *                 with -DHAVE_YYJSON (its output has quotes; compared
 *                 inside them)
 *
 * The two C escapers are written here from the algorithms named above. The
 * escaped set is the compact profile's: '"', '\\' and 0x00-0x1F, with \b \f
 * \n \r \t and \u00XX in lowercase hex.
 *
 * Timing: in each round every contender escapes the string once (enough
 * repetitions to last >= 5 ms; a string of under 1 MB is one of 16
 * different strings of that size in turn, so that no branch predictor can
 * learn one string's escapes by heart), in a rotated order, so the contenders of a
 * round see the same machine load. Reported: the median GB/s (input bytes
 * per second) over the rounds, the median of the per-round ratios to
 * memcpy, and the median per-round ratios jetjson/bulk and jetjson/byte.
 *
 * Usage: escape_bench [ROUNDS] [SIZES...]  (sizes in bytes; default
 * 100000 10000000 100000000). Prints a Markdown table.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jetjson.h"
#ifdef HAVE_YYJSON
#include <yyjson.h>
#endif

/* ---- the two C escapers ------------------------------------------------- */

/* Per byte: 0 when written as is, else the letter after '\' ('u' for
 * \u00XX). */
static unsigned char ESC[256];
/* Output length per input byte (1, 2 or 6). */
static unsigned char OUT_LEN[256];
static const char HEX[] = "0123456789abcdef";

static void init_tables(void) {
    for (int c = 0; c < 256; c++) {
        ESC[c] = 0;
        OUT_LEN[c] = 1;
    }
    for (int c = 0; c < 0x20; c++) {
        ESC[c] = 'u';
        OUT_LEN[c] = 6;
    }
    const struct {
        int c;
        char letter;
    } shorts[] = {{'"', '"'}, {'\\', '\\'}, {'\b', 'b'}, {'\f', 'f'}, {'\n', 'n'}, {'\r', 'r'}, {'\t', 't'}};
    for (size_t i = 0; i < sizeof shorts / sizeof *shorts; i++) {
        ESC[shorts[i].c] = (unsigned char)shorts[i].letter;
        OUT_LEN[shorts[i].c] = 2;
    }
}

static inline unsigned char *put_escape(unsigned char *o, unsigned char c) {
    unsigned char e = ESC[c];
    *o++ = '\\';
    *o++ = e;
    if (e == 'u') {
        *o++ = '0';
        *o++ = '0';
        *o++ = (unsigned char)HEX[c >> 4];
        *o++ = (unsigned char)HEX[c & 15];
    }
    return o;
}

/* Byte at a time into `out`, which has room for 6 * n bytes. */
static size_t escape_bytewise(const unsigned char *s, size_t n, unsigned char *out) {
    unsigned char *o = out;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (ESC[c])
            o = put_escape(o, c);
        else
            *o++ = c;
    }
    return (size_t)(o - out);
}

/* Count, size the output exactly, then copy clean runs in bulk. `*out` is
 * grown with realloc to the counted length (kept between calls). */
static size_t escape_bulk(const unsigned char *s, size_t n, unsigned char **out, size_t *cap) {
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += OUT_LEN[s[i]];
    if (len > *cap) {
        unsigned char *p = realloc(*out, len);
        if (!p)
            abort();
        *out = p;
        *cap = len;
    }
    if (len == n) {
        memcpy(*out, s, n);
        return n;
    }
    unsigned char *o = *out;
    size_t i = 0;
    while (i < n) {
        size_t run = i;
        while (run < n && !ESC[s[run]])
            run++;
        memcpy(o, s + i, run - i);
        o += run - i;
        if (run == n)
            break;
        o = put_escape(o, s[run]);
        i = run + 1;
    }
    return (size_t)(o - *out);
}

/* ---- inputs --------------------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Each byte: '"' with probability q, a control character with probability
 * s (0x01-0x1F: short and \u00XX escapes alike), else a letter or space. */
static unsigned char *make_input(size_t n, double q, double s) {
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-";
    unsigned char *b = malloc(n);
    if (!b)
        abort();
    uint64_t qt = (uint64_t)(q * 4294967296.0), st = (uint64_t)((q + s) * 4294967296.0);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = next();
        uint64_t u = r & 0xFFFFFFFF;
        if (u < qt)
            b[i] = '"';
        else if (u < st)
            b[i] = (unsigned char)(1 + (r >> 32) % 31);
        else
            b[i] = (unsigned char)plain[(r >> 32) % (sizeof plain - 1)];
    }
    return b;
}

/* ---- contenders --------------------------------------------------------- */

enum { MEMCPY, BYTE, BULK, JETJSON, YYJSON, NCONTENDERS };
static const char *NAMES[] = {"memcpy", "byte", "bulk", "jetjson", "yyjson"};

#define MAX_STRINGS 16

typedef struct {
    unsigned char *strings[MAX_STRINGS];
    int nstrings;
    const unsigned char *in; /* the string of this repetition */
    size_t n;
    unsigned char *copy, *bytewise, *bulk;
    size_t bulk_cap;
    jetjson_buffer jet;
    size_t out_len;
    const unsigned char *out; /* the last output, for the equality check */
} state;

static jetjson_write_options COMPACT = {JETJSON_PROFILE_COMPACT, 0, 0, 0, 0};

static void run_one(state *st, int who) {
    switch (who) {
    case MEMCPY:
        memcpy(st->copy, st->in, st->n);
        st->out = st->copy;
        st->out_len = st->n;
        break;
    case BYTE:
        st->out_len = escape_bytewise(st->in, st->n, st->bytewise);
        st->out = st->bytewise;
        break;
    case BULK:
        st->out_len = escape_bulk(st->in, st->n, &st->bulk, &st->bulk_cap);
        st->out = st->bulk;
        break;
    case JETJSON: {
        jetjson_error err;
        st->jet.len = 0;
        if (jetjson_escape((const char *)st->in, st->n, &COMPACT, &st->jet, &err) != JETJSON_OK) {
            fprintf(stderr, "jetjson_escape: %s\n", err.message);
            exit(1);
        }
        st->out = st->jet.data;
        st->out_len = st->jet.len;
        break;
    }
#ifdef HAVE_YYJSON
    case YYJSON: {
        static char *last;
        free(last);
        yyjson_mut_doc *doc = yyjson_mut_doc_new(NULL);
        yyjson_mut_doc_set_root(doc, yyjson_mut_strn(doc, (const char *)st->in, st->n));
        size_t len;
        last = yyjson_mut_write(doc, 0, &len);
        yyjson_mut_doc_free(doc);
        if (!last) {
            fprintf(stderr, "yyjson_mut_write failed\n");
            exit(1);
        }
        st->out = (const unsigned char *)last + 1; /* inside the quotes */
        st->out_len = len - 2;
        break;
    }
#endif
    default:
        break;
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define MAX_ROUNDS 101

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 9;
    if (rounds < 1 || rounds > MAX_ROUNDS)
        rounds = 9;
    size_t default_sizes[] = {100000, 10000000, 100000000};
    size_t sizes[8];
    int nsizes = 0;
    for (int i = 2; i < argc && nsizes < 8; i++)
        sizes[nsizes++] = strtoull(argv[i], NULL, 10);
    if (nsizes == 0) {
        memcpy(sizes, default_sizes, sizeof default_sizes);
        nsizes = 3;
    }
    const double mix[][2] = {{0, 0}, {0.02, 0.01}, {0.10, 0.01}};
    int have_yyjson = 0;
#ifdef HAVE_YYJSON
    have_yyjson = 1;
#endif
    int ncont = have_yyjson ? NCONTENDERS : YYJSON;
    init_tables();

    printf("| size | Q, S | memcpy GB/s | byte GB/s (x memcpy) | bulk GB/s (x memcpy) | jetjson GB/s (x memcpy) |%s jetjson / bulk | jetjson / byte |\n",
           have_yyjson ? " yyjson GB/s (x memcpy) | jetjson / yyjson |" : "");
    printf("|---|---|---|---|---|---|%s---|---|\n", have_yyjson ? "---|---|" : "");
    for (int si = 0; si < nsizes; si++) {
        for (int mi = 0; mi < 3; mi++) {
            size_t n = sizes[si];
            state st = {0};
            st.nstrings = n < 1000000 ? MAX_STRINGS : 1;
            for (int k = 0; k < st.nstrings; k++)
                st.strings[k] = make_input(n, mix[mi][0], mix[mi][1]);
            st.in = st.strings[0];
            st.n = n;
            st.copy = malloc(n);
            st.bytewise = malloc(6 * n + 64);
            if (!st.copy || !st.bytewise)
                abort();
            /* Every contender once per string, untimed: buffers faulted in,
             * outputs compared with the byte-at-a-time escaper's. */
            for (int k = 0; k < st.nstrings; k++) {
                st.in = st.strings[k];
                run_one(&st, BYTE);
                size_t want_len = st.out_len;
                unsigned char *want = malloc(want_len);
                memcpy(want, st.out, want_len);
                for (int who = 0; who < ncont; who++) {
                    run_one(&st, who);
                    /* yyjson's spelling of escapes may differ; the work (the
                     * output length) may not. */
                    int same = st.out_len == want_len && (who == YYJSON || memcmp(st.out, want, want_len) == 0);
                    if (who != MEMCPY && !same) {
                        fprintf(stderr, "%s writes other bytes than the byte-at-a-time escaper (size %zu, mix %d)\n", NAMES[who], n, mi);
                        return 1;
                    }
                }
                free(want);
            }

            /* Repetitions per timed sample: at least 5 ms of memcpy. */
            double t0 = now();
            run_one(&st, MEMCPY);
            double one = now() - t0;
            int reps = one > 0.005 ? 1 : (int)(0.005 / (one > 1e-7 ? one : 1e-7)) + 1;

            double gbs[NCONTENDERS][MAX_ROUNDS], vs_copy[NCONTENDERS][MAX_ROUNDS], vs_bulk[MAX_ROUNDS], vs_byte[MAX_ROUNDS], vs_yy[MAX_ROUNDS];
            for (int r = 0; r < rounds; r++) {
                double secs[NCONTENDERS];
                for (int k = 0; k < ncont; k++) {
                    int who = (k + r) % ncont;
                    double t = now();
                    for (int i = 0; i < reps; i++) {
                        st.in = st.strings[i % st.nstrings];
                        run_one(&st, who);
                    }
                    secs[who] = (now() - t) / reps;
                }
                for (int who = 0; who < ncont; who++) {
                    gbs[who][r] = (double)n / secs[who] / 1e9;
                    vs_copy[who][r] = secs[MEMCPY] / secs[who];
                }
                vs_bulk[r] = secs[BULK] / secs[JETJSON];
                vs_byte[r] = secs[BYTE] / secs[JETJSON];
                vs_yy[r] = have_yyjson ? secs[YYJSON] / secs[JETJSON] : 0;
            }
            char size_text[32];
            if (n >= 1000000)
                snprintf(size_text, sizeof size_text, "%zu MB", n / 1000000);
            else
                snprintf(size_text, sizeof size_text, "%zu KB", n / 1000);
            printf("| %s | %g%%, %g%% | %.2f |", size_text, mix[mi][0] * 100, mix[mi][1] * 100, median(gbs[MEMCPY], rounds));
            for (int who = BYTE; who < ncont; who++)
                printf(" %.2f (%.2f) |", median(gbs[who], rounds), median(vs_copy[who], rounds));
            if (have_yyjson)
                printf(" %.2fx |", median(vs_yy, rounds));
            printf(" %.2fx | %.2fx |\n", median(vs_bulk, rounds), median(vs_byte, rounds));
            fflush(stdout);
            for (int k = 0; k < st.nstrings; k++)
                free(st.strings[k]);
            free(st.copy);
            free(st.bytewise);
            free(st.bulk);
            jetjson_buffer_free(&st.jet);
        }
    }
    return 0;
}
