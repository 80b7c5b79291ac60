/* No global state: threads canonicalizing, escaping and writing at once
 * each get the bytes a single thread gets. */
#include <pthread.h>
#include <stdlib.h>

#include "util.h"

#define THREADS 4
#define ROUNDS 40

typedef struct {
    int profile;
    const char *doc;
    const jetjson_buffer *want;
    int failures;
} job;

static void *work(void *arg) {
    job *j = arg;
    jetjson_write_options o = {j->profile, 0, 0, 0, 0, 0};
    jetjson_buffer out = JETJSON_BUFFER_INIT;
    for (int r = 0; r < ROUNDS; r++) {
        out.len = 0;
        jetjson_status st = jetjson_canonicalize((const unsigned char *)j->doc, strlen(j->doc), &o, NULL, &out, NULL);
        if (st != JETJSON_OK || out.len != j->want->len || memcmp(out.data, j->want->data, out.len) != 0)
            j->failures++;
        jetjson_writer *w;
        out.len = 0;
        st = jetjson_writer_new(&o, &out, &w, NULL);
        st |= jetjson_writer_begin_object(w, NULL);
        st |= jetjson_writer_key(w, "<k>", 3, NULL);
        st |= jetjson_writer_double(w, 0.1 * r, NULL);
        st |= jetjson_writer_end_object(w, NULL);
        st |= jetjson_writer_finish(w, NULL);
        jetjson_writer_free(w);
        if (st != JETJSON_OK)
            j->failures++;
    }
    jetjson_buffer_free(&out);
    return NULL;
}

void test_threads(void) {
    const char *doc = "{\"z\":[1,2.5,\"<\\u2028>\"],\"a\":{\"y\":null,\"b\":true},\"\xc3\xa9\":-0.0}";
    jetjson_buffer want[3] = {JETJSON_BUFFER_INIT, JETJSON_BUFFER_INIT, JETJSON_BUFFER_INIT};
    jetjson_error err;
    int profiles[3] = {JETJSON_PROFILE_COMPACT, JETJSON_PROFILE_GO, JETJSON_PROFILE_JCS};
    for (int p = 0; p < 3; p++) {
        jetjson_write_options o = {profiles[p], 0, 0, 0, 0, 0};
        CHECK_OK(jetjson_canonicalize((const unsigned char *)doc, strlen(doc), &o, NULL, &want[p], &err), err);
    }
    pthread_t t[THREADS * 3];
    job jobs[THREADS * 3];
    for (int i = 0; i < THREADS * 3; i++) {
        jobs[i] = (job){profiles[i % 3], doc, &want[i % 3], 0};
        CHECK(pthread_create(&t[i], NULL, work, &jobs[i]) == 0, "thread %d", i);
    }
    for (int i = 0; i < THREADS * 3; i++) {
        pthread_join(t[i], NULL);
        CHECK(jobs[i].failures == 0, "thread %d: %d failures", i, jobs[i].failures);
    }
    for (int p = 0; p < 3; p++)
        jetjson_buffer_free(&want[p]);
}
