import Glibc
import SkillGateCore
import Testing

@Suite struct ThreadSchedulingTests {
    /// The slice a new thread reports from inside itself.
    private func sliceReported(by scheduling: ThreadScheduling) async -> UInt64? {
        await withCheckedContinuation { (continuation: CheckedContinuation<UInt64?, Never>) in
            let started = DetachedThread.start(name: "sg-test-slice", scheduling: scheduling) {
                continuation.resume(returning: ThreadScheduling.currentThreadSliceNanoseconds)
            }
            if !started { continuation.resume(returning: nil) }
        }
    }

    /// Linux 6.12 and later keep a custom slice per thread (EEVDF) and report it back.
    private static var kernelKeepsCustomSlices: Bool {
        var name = utsname()
        guard uname(&name) == 0 else { return false }
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let numbers = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard numbers.count == 2 else { return false }
        return (numbers[0], numbers[1]) >= (6, 12)
    }

    @Test func aBackgroundThreadAsksForTheLongSliceAndANormalOneKeepsTheKernelDefault() async {
        let background = await sliceReported(by: .background)
        let normal = await sliceReported(by: .normal)
        if Self.kernelKeepsCustomSlices {
            #expect(background == ThreadScheduling.backgroundSliceNanoseconds)
            #expect(normal != nil)
            #expect(normal != ThreadScheduling.backgroundSliceNanoseconds)
        } else {
            // Older kernels ignore the request and report no slice; the thread still runs.
            #expect(background == nil)
        }
    }

    @Test func aLowPriorityBackgroundThreadLowersItsPriorityAndKeepsTheLongSlice() async {
        let (nice, slice) = await withCheckedContinuation { (continuation: CheckedContinuation<(Int32, UInt64?), Never>) in
            let started = DetachedThread.start(name: "sg-test-nice", scheduling: .lowPriorityBackground) {
                continuation.resume(returning: (ThreadScheduling.nice(), ThreadScheduling.currentThreadSliceNanoseconds))
            }
            if !started { continuation.resume(returning: (-100, nil)) }
        }
        #expect(nice == ThreadScheduling.lowPriorityNice)
        if Self.kernelKeepsCustomSlices { #expect(slice == ThreadScheduling.backgroundSliceNanoseconds) }
        // The nice value is the thread's own: the caller keeps its priority.
        #expect(ThreadScheduling.nice() != ThreadScheduling.lowPriorityNice)
    }

    @Test func aThreadThatIsRefusedItsSliceStillRuns() async {
        // SCHED_IDLE cannot be left without privilege, and the shim changes only SCHED_OTHER and SCHED_BATCH threads:
        // the request is refused with EPERM and the thread goes on under its own policy.
        let refusal = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            DetachedThread.start(name: "sg-test-idle") {
                var parameters = sched_param(sched_priority: 0)
                guard pthread_setschedparam(pthread_self(), 5 /* SCHED_IDLE */, &parameters) == 0 else {
                    return continuation.resume(returning: -1)
                }
                continuation.resume(returning: ThreadScheduling.background.applyToCurrentThread())
            }
        }
        #expect(refusal == EPERM)
    }
}
