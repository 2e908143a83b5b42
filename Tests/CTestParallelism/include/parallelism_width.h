#ifndef SG_TEST_PARALLELISM_WIDTH_H
#define SG_TEST_PARALLELISM_WIDTH_H

/// The width the constructor sets when the environment gives none: enough for the tests that mostly wait (timeouts,
/// drains) to overlap, few enough that the tests starting gateways do not all start at once (decision 0166).
#define SG_TEST_DEFAULT_PARALLELISM_WIDTH 32

/// How many tests Swift Testing runs at once in this test process: the value of
/// SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH as the process started with it, or, when it was not set, the bound a
/// constructor set before `main` (decision 0166). 0 when the variable is set to something that is not a number.
int sg_test_parallelism_width(void);

/// Whether the width came from that constructor (1) rather than from the environment the process was started with (0).
int sg_test_parallelism_width_is_default(void);

#endif
