import Glibc
import Synchronization
import Testing
import SkillGateTestSupport
@testable import SkillGateCore

/// Blocking work an async caller awaits runs on the queue, never on the caller's thread, one job at a time, in order
/// (decisions 0085, 0086).
@Suite struct BlockingWorkQueueTests {
    struct Failure: Error, Equatable {}

    @Test func workRunsOffTheCallersThreadAndItsResultComesBack() async throws {
        let queue = BlockingWorkQueue(label: "test.blocking-work")
        let (caller, ranOn, value) = await onOwnThread { () async -> (pthread_t, pthread_t, Int) in
            let caller = pthread_self()
            let (ranOn, value) = await queue.run { (pthread_self(), 42) }
            return (caller, ranOn, value)
        }
        #expect(value == 42)
        #expect(pthread_equal(caller, ranOn) == 0, "the work ran on the caller's thread")
    }

    @Test func anErrorComesBackToTheCaller() async {
        let queue = BlockingWorkQueue(label: "test.blocking-work-errors")
        await #expect(throws: Failure.self) { try await queue.run { () throws -> Int in throw Failure() } }
    }

    @Test func jobsRunOneAtATimeInOrder() async {
        let queue = BlockingWorkQueue(label: "test.blocking-work-order")
        let log = Mutex<(running: Int, most: Int, order: [Int])>((0, 0, []))
        for i in 0..<5 {
            queue.start {
                log.locked { $0.running += 1; $0.most = max($0.most, $0.running); $0.order.append(i) }
                usleep(5_000)
                log.locked { $0.running -= 1 }
            }
        }
        await queue.run { () -> Void in }  // after the five, on the same queue
        let seen = log.locked { $0 }
        #expect(seen.order == [0, 1, 2, 3, 4] && seen.most == 1, "\(seen)")
    }
}
