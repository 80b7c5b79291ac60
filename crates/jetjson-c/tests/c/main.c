/* The C test program of libjetjson (run by `make test-c`, built with
 * AddressSanitizer and UndefinedBehaviorSanitizer, once against the shared
 * and once against the static library).
 * Usage: test_capi CORPUS_DIR   (../shared/corpus) */
#include "util.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    const char *corpus = argv[1];
    struct {
        const char *name;
        int kind;
    } groups[] = {{"buffers and errors", 0}, {"documents", 1}, {"escape", 2}, {"writer", 3}, {"reader", 4}, {"threads", 5}};
    int groups_failed = 0;
    for (size_t g = 0; g < sizeof groups / sizeof *groups; g++) {
        int before = checks_failed, run_before = checks_run;
        switch (groups[g].kind) {
        case 0: test_buffers_and_errors(); break;
        case 1: test_documents(corpus); break;
        case 2: test_escape(); break;
        case 3: test_writer(corpus); break;
        case 4: test_reader(corpus); break;
        default: test_threads(); break;
        }
        int failed = checks_failed - before;
        groups_failed += failed > 0;
        printf("%-20s %6d checks, %d failed\n", groups[g].name, checks_run - run_before, failed);
    }
    /* The plain closing line CI reads. */
    printf("%d passed, %d failed\n", checks_run - checks_failed, checks_failed);
    return checks_failed ? 1 : 0;
}
