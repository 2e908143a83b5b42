import Dispatch
import SkillGateCore
import Synchronization
import Testing

/// `Mutex.locked` (decision 0165) behaves as `withLock`: the body runs holding the lock, its result and its typed error
/// come back. What it adds, the annotations, only ThreadSanitizer can observe; `scripts/sanitize.sh thread` checks
/// them on `scripts/sanitizers/tsan-mutex/main.swift` before the suite.
@Suite struct MutexLockedTests {
    private enum Refusal: Error, Equatable { case refused(Int) }

    @Test func theBodysResultComesBackAndItsChangesStay() {
        let counter = Mutex(0)
        let before = counter.locked { value -> Int in
            defer { value += 5 }
            return value
        }
        #expect(before == 0)
        #expect(counter.locked { $0 } == 5)
    }

    @Test func aTypedErrorComesBackTyped() {
        let counter = Mutex(7)
        #expect(throws: Refusal.refused(7)) {
            try counter.locked { (value: inout Int) throws(Refusal) -> Void in throw .refused(value) }
        }
    }

    @Test func theLockIsHeldWhileTheBodyRunsAndFreeAfter() {
        let counter = Mutex(0)
        counter.locked { _ in
            #expect(counter.withLockIfAvailable { _ in true } == nil)
        }
        #expect(counter.withLockIfAvailable { _ in true } == true)
    }

    private final class Counter: Sendable { let value = Mutex(0) }

    @Test func threadsAddingUnderItLoseNothing() {
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.value.locked { $0 += 1 } }
        }
        #expect(counter.value.locked { $0 } == 80_000)
    }
}
