// Bounds how many tests run at once in the test process, before `main` (a constructor, like the proxy variables in
// Tests/CTestProxyEnvironment): Swift Testing reads SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH as it starts, and
// without it starts every test of the suite at once. On a two-core machine that was ~350 gateways and their upstream
// doubles at the same moment (~4,000 threads), and a test's task waited ~20 s for a thread of the shared pool before
// its body ran and seconds more at each await (decision 0166). A width set in the environment is kept, so
// `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 swift test` still runs the tests one at a time.
#include "parallelism_width.h"
#include <stdio.h>
#include <stdlib.h>

static int width_is_default = 0;

__attribute__((constructor)) static void sg_bound_test_parallelism(void) {
    if (getenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH") == NULL) {
        char width[16];
        snprintf(width, sizeof width, "%d", SG_TEST_DEFAULT_PARALLELISM_WIDTH);
        setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", width, 0);
        width_is_default = 1;
    }
}

int sg_test_parallelism_width(void) {
    const char *value = getenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH");
    if (value == NULL) return 0;
    char *end = NULL;
    long width = strtol(value, &end, 10);
    return (end == value || *end != '\0' || width < 0 || width > 1000000) ? 0 : (int)width;
}

int sg_test_parallelism_width_is_default(void) { return width_is_default; }
