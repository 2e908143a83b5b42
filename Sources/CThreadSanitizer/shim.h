#ifndef SKILLGATE_CTHREADSANITIZER_SHIM_H
#define SKILLGATE_CTHREADSANITIZER_SHIM_H

// ThreadSanitizer's annotations for a lock it cannot see (decision 0165). `Synchronization.Mutex` locks with futex
// system calls on Linux, which ThreadSanitizer does not intercept, so two threads' accesses inside one Mutex look
// unordered to it. The annotations tell it what the lock did: an acquire of the lock's address after the lock is
// taken, a release before it is let go.
//
// The runtime's entry points are declared weak: a build without `-sanitize=thread` links no ThreadSanitizer runtime,
// the addresses are null and each annotation is one test of a constant. Under `-sanitize=thread` the runtime defines
// them and the annotations run.

void __tsan_acquire(void *address) __attribute__((weak));
void __tsan_release(void *address) __attribute__((weak));

/// Tells ThreadSanitizer (when it is linked in) that the calling thread has taken the lock at `address`: everything
/// done by threads that released it before happened before what this thread does next.
static inline void sg_tsan_acquire(const void *address) {
    if (__tsan_acquire) __tsan_acquire((void *)address);
}

/// Tells ThreadSanitizer (when it is linked in) that the calling thread is letting go of the lock at `address`.
static inline void sg_tsan_release(const void *address) {
    if (__tsan_release) __tsan_release((void *)address);
}

#endif
