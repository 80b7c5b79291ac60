#include "util.h"

#include <stdlib.h>

int checks_run;
int checks_failed;

void str_put(str_t *s, const void *bytes, size_t n) {
    if (s->len + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 64;
        while (cap < s->len + n + 1)
            cap *= 2;
        char *p = realloc(s->data, cap);
        if (!p) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        s->data = p;
        s->cap = cap;
    }
    if (n)
        memcpy(s->data + s->len, bytes, n);
    s->len += n;
    s->data[s->len] = 0;
}

void str_puts(str_t *s, const char *text) { str_put(s, text, strlen(text)); }

void str_free(str_t *s) {
    free(s->data);
    s->data = NULL;
    s->len = s->cap = 0;
}

unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    str_t s = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        str_put(&s, chunk, n);
    fclose(f);
    if (!s.data)
        str_put(&s, "", 0);
    *len = s.len;
    return (unsigned char *)s.data;
}

uint64_t rnd(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

size_t rnd_below(uint64_t *state, size_t n) { return (size_t)(rnd(state) % n); }

escape_set set_of(const jetjson_write_options *o) {
    escape_set s = {0, 0, 0};
    int go = o && o->profile == JETJSON_PROFILE_GO;
    int html = o ? o->escape_html : JETJSON_HTML_PROFILE;
    s.html = html == JETJSON_HTML_ON || (html == JETJSON_HTML_PROFILE && go);
    /* Go escapes U+2028/9 always; elsewhere they go with the HTML set. */
    s.line_separators = go || s.html;
    s.ascii_only = o && o->ascii_only;
    return s;
}

static void put_u(str_t *out, unsigned v) {
    char b[8];
    snprintf(b, sizeof b, "\\u%04x", v);
    str_put(out, b, 6);
}

void ref_escape(escape_set set, const unsigned char *s, size_t n, str_t *out) {
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t w = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        unsigned cp = c;
        if (w == 2)
            cp = (c & 0x1F) << 6 | (s[i + 1] & 0x3F);
        else if (w == 3)
            cp = (c & 0x0F) << 12 | (s[i + 1] & 0x3F) << 6 | (s[i + 2] & 0x3F);
        else if (w == 4)
            cp = (c & 0x07) << 18 | (s[i + 1] & 0x3F) << 12 | (s[i + 2] & 0x3F) << 6 | (s[i + 3] & 0x3F);
        switch (cp) {
        case '"': str_puts(out, "\\\""); break;
        case '\\': str_puts(out, "\\\\"); break;
        case '\b': str_puts(out, "\\b"); break;
        case '\f': str_puts(out, "\\f"); break;
        case '\n': str_puts(out, "\\n"); break;
        case '\r': str_puts(out, "\\r"); break;
        case '\t': str_puts(out, "\\t"); break;
        default:
            if (cp < 0x20)
                put_u(out, cp);
            else if (set.html && (cp == '<' || cp == '>' || cp == '&'))
                put_u(out, cp);
            else if (set.line_separators && (cp == 0x2028 || cp == 0x2029))
                put_u(out, cp);
            else if (set.ascii_only && cp == 0x7F)
                put_u(out, cp); /* DEL, as Python's ensure_ascii */
            else if (set.ascii_only && cp >= 0x80) {
                if (cp >= 0x10000) {
                    put_u(out, 0xD800 + ((cp - 0x10000) >> 10));
                    put_u(out, 0xDC00 + ((cp - 0x10000) & 0x3FF));
                } else {
                    put_u(out, cp);
                }
            } else
                str_put(out, s + i, w);
        }
        i += w;
    }
}

static const char *const PIECES[] = {
    "a", "b", "hello", " ", "/", "\"", "\\", "\n", "\r", "\t", "\b", "\f",
    "\x01", "\x1f", "\x7f", "<", ">", "&", "\xc3\xa9" /* é */, "\xe2\x82\xac" /* € */,
    "\xe2\x80\xa8" /* U+2028 */, "\xe2\x80\xa9" /* U+2029 */, "\xe2\x80\xa7" /* U+2027 */,
    "\xf0\x9f\x98\x80" /* U+1F600 */, "\xef\xbf\xbd" /* U+FFFD */, "0123456789abcdef0123456789abcdef",
};

void random_text(uint64_t *state, size_t pieces, str_t *out) {
    for (size_t i = 0; i < pieces; i++) {
        /* Mostly plain runs, so strings also have long clean stretches. */
        const char *p = rnd_below(state, 3) ? PIECES[rnd_below(state, 3)] : PIECES[rnd_below(state, sizeof PIECES / sizeof *PIECES)];
        str_puts(out, p);
    }
    /* NUL bytes are data too. */
    if (rnd_below(state, 4) == 0)
        str_put(out, "\0", 1);
}
