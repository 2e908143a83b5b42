import FoundationEssentials
import Dispatch
import Synchronization

/// `last_used_at`: noted on use at most once per `lastUsedInterval` per token, written in the background.
extension TokenService {
    /// Queues a last-used write for the entry's token unless one was queued within
    /// `lastUsedInterval`. Returns whether it queued, and whether a background flush must start.
    func noteUse(of entry: inout CacheEntry, in state: inout State, at time: Date) -> (queued: Bool, schedule: Bool) {
        if let last = entry.lastUsedQueuedAt, case let since = time.timeIntervalSince(last), since >= 0, since < lastUsedInterval {
            return (false, false)
        }
        entry.lastUsedQueuedAt = time
        entry.stored.token.lastUsedAt = time.roundedToMilliseconds
        state.pendingLastUsed[entry.stored.token.id] = time
        if state.flushScheduled { return (true, false) }
        state.flushScheduled = true
        return (true, true)
    }

    /// Writes the queued last-used times on `lastUsedWrites`: a thread that may wait for the database's write lock (up
    /// to the store's busy timeout while another process holds it), which a cooperative-pool thread must never do.
    func scheduleFlush() {
        lastUsedWrites.async { [self] in try? flushLastUsed() }
    }

    /// Writes the queued last-used times now (also done in the background after `authenticate`;
    /// call it at shutdown), and returns only once a background flush already writing has finished.
    /// On failure the times stay queued for the next flush.
    public func flushLastUsed() throws {
        try flushing.locked { flushesWritten throws(any Error) in
            let pending = state.locked { state -> [String: Date] in
                defer { state.pendingLastUsed.removeAll(); state.flushScheduled = false }
                return state.pendingLastUsed
            }
            guard !pending.isEmpty else { return }
            do {
                try store.markTokensUsed(pending)
                flushesWritten += 1
            } catch {
                state.locked { state in state.pendingLastUsed.merge(pending) { newer, _ in newer } }
                throw error
            }
        }
    }
}
