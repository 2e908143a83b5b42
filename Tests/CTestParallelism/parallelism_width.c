// Bounds how many tests run at once in the test process, before `main` (a constructor, like the proxy variables in
// Tests/CTestProxyEnvironment): Swift Testing reads SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH as it starts, and
// without it starts every test of the suite at once. On a two-core machine that was ~350 gateways and their upstream
// doubles at the same moment (~4,000 threads), and a test's task waited ~20 s for a thread of the shared pool before
// its body ran and seconds more at each await (decision 0166). A width set in the environment is kept, so
// `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 swift test` still runs the tests one at a time.
#include "parallelism_width.h"
#include <stdlib.h>

/// The width when the environment does not say: enough for the tests that mostly wait (timeouts, drains) to overlap,
/// few enough that the tests starting gateways do not all start at once (decision 0166's measurements).
#define SG_DEFAULT_PARALLELISM_WIDTH "32"

static int width_is_default = 0;

__attribute__((constructor)) static void sg_bound_test_parallelism(void) {
    if (getenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH") == NULL) {
        setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", SG_DEFAULT_PARALLELISM_WIDTH, 0);
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
