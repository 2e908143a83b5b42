import CThreadSanitizer
import Synchronization

extension Mutex where Value: ~Copyable {
    /// Runs `body` holding the lock, exactly as `withLock`, and tells ThreadSanitizer so (decision 0165).
    ///
    /// `Synchronization.Mutex` takes and lets go of its lock with futex system calls on Linux, which ThreadSanitizer
    /// does not see: every pair of accesses made inside one Mutex by two threads was reported as a race, which buried
    /// the reports that matter. Here the lock's address is announced as acquired once the lock is held and as
    /// released before it is let go. Without ThreadSanitizer linked in, each announcement is a test of a null
    /// address. SkillGate's code calls this, never `withLock` (`MutexAnnotationRuleTests`).
    @inlinable
    public borrowing func locked<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        // A Mutex is never moved (`@_staticExclusiveOnly`), so the address it is borrowed at is its own.
        let address = withUnsafePointer(to: self) { UnsafeRawPointer($0) }
        return try withLock { (value: inout sending Value) throws(E) -> sending Result in
            sg_tsan_acquire(address)
            defer { sg_tsan_release(address) }
            return try body(&value)
        }
    }
}
