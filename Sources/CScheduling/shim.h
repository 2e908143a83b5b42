#ifndef SKILLGATE_CSCHEDULING_SHIM_H
#define SKILLGATE_CSCHEDULING_SHIM_H

// The calling thread's time slice under the kernel's fair scheduler (decision 0048). glibc 2.36 has no wrapper for
// sched_setattr/sched_getattr, and Swift cannot call the variadic syscall(2), so the calls are made here.

#include <stdint.h>

#if defined(__linux__)
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/// `struct sched_attr` of <linux/sched/types.h> (its size-versioned layout, version 1).
struct sg_sched_attr {
    uint32_t size;
    uint32_t sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime;
    uint64_t sched_deadline;
    uint64_t sched_period;
    uint32_t sched_util_min;
    uint32_t sched_util_max;
};

/// Asks for a time slice of `nanoseconds` for the calling thread, keeping its policy and nice value. Only a thread
/// under SCHED_OTHER or SCHED_BATCH is changed. Linux 6.12 and later clamp the slice to 0.1–100 ms (EEVDF's custom
/// slice); older kernels ignore the field. Returns 0, or an errno (EPERM under a seccomp filter, ENOSYS, ...).
static inline int sg_set_own_time_slice(uint64_t nanoseconds) {
    struct sg_sched_attr attr;
    memset(&attr, 0, sizeof attr);
    if (syscall(SYS_sched_getattr, 0, &attr, sizeof attr, 0) != 0) return errno;
    if (attr.sched_policy != 0 && attr.sched_policy != 3) return EPERM;
    attr.size = sizeof attr;
    attr.sched_flags &= 0x01;  // SCHED_FLAG_RESET_ON_FORK, the one flag to carry over
    attr.sched_runtime = nanoseconds;
    return syscall(SYS_sched_setattr, 0, &attr, 0) == 0 ? 0 : errno;
}

/// The time slice in nanoseconds of thread `tid` of this process (0: the calling thread) as the kernel reports it
/// (`sched_runtime` of a fair-scheduled thread, Linux 6.12 and later; 0 on older kernels), or 0 when it cannot be read.
static inline uint64_t sg_time_slice_of(int32_t tid) {
    struct sg_sched_attr attr;
    memset(&attr, 0, sizeof attr);
    if (syscall(SYS_sched_getattr, (pid_t)tid, &attr, sizeof attr, 0) != 0) return 0;
    return attr.sched_runtime;
}

/// Sets the nice value of the calling thread alone (Linux keeps one per thread). Without privilege a thread can only
/// raise it (lower its priority), and cannot lower it again. Returns 0 or an errno.
static inline int sg_set_own_nice(int32_t nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice) == 0 ? 0 : errno;
}

/// The nice value of thread `tid` of this process (0: the calling thread).
static inline int32_t sg_nice_of(int32_t tid) {
    return getpriority(PRIO_PROCESS, (id_t)(tid == 0 ? syscall(SYS_gettid) : tid));
}
#else
static inline int sg_set_own_nice(int32_t nice) { (void)nice; return 0; }
static inline int32_t sg_nice_of(int32_t tid) { (void)tid; return 0; }
static inline int sg_set_own_time_slice(uint64_t nanoseconds) { (void)nanoseconds; return 0; }
static inline uint64_t sg_time_slice_of(int32_t tid) { (void)tid; return 0; }
#endif

#endif
