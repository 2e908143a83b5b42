import Dispatch
import SkillGateCore
import Synchronization
import Testing

/// A low-priority writer hands its backlog to a lane whose thread keeps the priority of the thread that made the lane
/// (decision 0060).
@Suite struct CatchUpLaneTests {
    /// Runs `body` on a new low-priority background thread and returns what it returns.
    private func onLowPriorityThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let started = DetachedThread.start(name: "sg-test-low", scheduling: .lowPriorityBackground) {
                continuation.resume(returning: body())
            }
            if !started { continuation.resume(returning: nil) }
        }
    }

    @Test func aJobHandedFromALowPriorityThreadRunsAtTheLanesPriorityAndRunWaitsForIt() async {
        let lane = CatchUpLane(name: "sg-test-lane")
        defer { lane.close() }
        let maker = ThreadScheduling.nice()
        let result = await onLowPriorityThread { () -> (caller: Int32, job: Int32, finished: Bool) in
            let seen = Mutex<(nice: Int32, finished: Bool)>((-100, false))
            lane.run {
                // A job that takes a moment: `run` must not return before it ends.
                usleepForTest(20_000)
                seen.locked { $0 = (ThreadScheduling.nice(), true) }
            }
            let after = seen.locked { $0 }
            return (ThreadScheduling.nice(), after.nice, after.finished)
        }
        #expect(result?.caller == ThreadScheduling.lowPriorityNice)
        #expect(result?.job == maker)
        #expect(result?.finished == true)
        #expect(lane.jobsRun == 1)
    }

    @Test func runReturnsTheJobsResultOnTheLaneAndAfterClose() {
        let lane = CatchUpLane(name: "sg-test-lane")
        #expect(lane.run { 40 + 2 } == 42)
        #expect(lane.jobsRun == 1)
        lane.close()
        #expect(lane.run { "in place" } == "in place")
        #expect(lane.jobsRun == 1)
    }

    @Test func afterCloseJobsRunOnTheCallersThread() async {
        let lane = CatchUpLane(name: "sg-test-lane")
        lane.close()
        let result = await onLowPriorityThread { () -> Int32 in
            let seen = Mutex<Int32>(-100)
            lane.run { seen.locked { $0 = ThreadScheduling.nice() } }
            return seen.locked { $0 }
        }
        #expect(result == ThreadScheduling.lowPriorityNice)
        #expect(lane.jobsRun == 0)
    }
}

private func usleepForTest(_ microseconds: UInt32) {
    let semaphore = DispatchSemaphore(value: 0)
    _ = semaphore.wait(timeout: .now() + .microseconds(Int(microseconds)))
}
