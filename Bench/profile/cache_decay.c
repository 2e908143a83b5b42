// How fast this host's CPU caches go cold while a thread sleeps (decision 0056).
//
// After each sleep, times (1) a dependent walk over 4,096 cache lines spread one per KiB over 4 MiB (a request's worth
// of lines on as many pages as a request touches), and (2) 20,000 dependent multiply-adds that touch no memory. The
// walk's nanoseconds per line say how much of the caches and TLBs survived the sleep; the arithmetic says whether the
// core itself runs slower after one (a clock that ramps up). Medians of 32 rounds per sleep.
//
//     cc -O2 Bench/profile/cache_decay.c -o /tmp/cache_decay && /tmp/cache_decay
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { LINES = 4096, STRIDE = 1024, ROUNDS = 40, SKIPPED = 8 };

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void sleep_ns(long ns) {
    if (ns == 0) return;
    struct timespec t = {ns / 1000000000, ns % 1000000000};
    nanosleep(&t, NULL);
}

static int compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t median(uint64_t *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare);
    return values[count / 2];
}

int main(void) {
    char *memory = aligned_alloc(4096, (size_t)LINES * STRIDE);
    unsigned *order = malloc(LINES * sizeof *order);
    if (!memory || !order) return 1;
    // A random cycle through the lines, so that the hardware prefetchers cannot guess the next one.
    for (unsigned i = 0; i < LINES; i++) order[i] = i;
    srand(1);
    for (unsigned i = LINES - 1; i > 0; i--) {
        unsigned j = (unsigned)rand() % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (unsigned i = 0; i < LINES; i++)
        *(void **)(memory + (size_t)order[i] * STRIDE) = memory + (size_t)order[(i + 1) % LINES] * STRIDE;

    const long sleeps_ns[] = {0, 50000, 200000, 1000000, 3000000, 10000000, 30000000, 100000000};
    volatile uintptr_t sink = 0;
    printf("%10s  %16s  %22s\n", "sleep", "walk ns/line", "20k mul-add, µs");
    for (size_t s = 0; s < sizeof sleeps_ns / sizeof *sleeps_ns; s++) {
        uint64_t walk[ROUNDS], arithmetic[ROUNDS];
        int kept = 0;
        for (int round = 0; round < ROUNDS; round++) {
            sleep_ns(sleeps_ns[s]);
            uint64_t t0 = now_ns();
            void *p = memory + (size_t)order[0] * STRIDE;
            for (int i = 0; i < LINES; i++) p = *(void **)p;
            uint64_t t1 = now_ns();
            sink = (uintptr_t)p;
            sleep_ns(sleeps_ns[s]);
            uint64_t t2 = now_ns(), x = (uint64_t)round;
            for (int i = 0; i < 20000; i++) x = x * 6364136223846793005u + 1442695040888963407u;
            uint64_t t3 = now_ns();
            sink = (uintptr_t)x;
            if (round >= SKIPPED) {
                walk[kept] = t1 - t0;
                arithmetic[kept] = t3 - t2;
                kept++;
            }
        }
        printf("%7ld µs  %16.1f  %22.1f\n", sleeps_ns[s] / 1000, median(walk, kept) / (double)LINES,
               median(arithmetic, kept) / 1000.0);
    }
    (void)sink;
    free(order);
    free(memory);
    return 0;
}
