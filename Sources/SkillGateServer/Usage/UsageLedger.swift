import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateState
import Synchronization

/// Writes usage records to the state store on a thread of its own, in batches: the account stage only appends to
/// a queue (a lock and an array append), and every `flushInterval` (or sooner, once `batchSize` records wait) the
/// writer inserts what is queued in one transaction.
///
/// **Batch size** (decision 0031): the writer wakes early once `batchSize` records wait. On PostgreSQL a batch costs the
/// database a fixed ~0.7–1.7 ms besides its rows (the `COPY`'s set-up, the running totals' upsert, the commit), so it
/// takes `sharedDatabaseBatch` (4,096: at 20,000 requests a second the server's CPU per request fell from 5 to 2 µs);
/// on the embedded SQLite file a batch's fixed cost is small and a longer transaction is a longer burst of CPU beside
/// the event loops, so it keeps `embeddedBatch` (512). Either way a batch is at most one `flushInterval` old.
///
/// **Batch window** (decision 0059): on SQLite a batch is written 25 ms after its first record by default. Batches of
/// up to 512 rows a second apart were bursts of ~2 ms of CPU that doubled the one-connection p99 on a two-core host;
/// 25 ms keeps each burst to a fraction of a millisecond. A writer with nothing queued sleeps until a record comes, so
/// an idle gateway is not woken 40 times a second.
///
/// **Priority** (decision 0060): the writer runs at a lowered priority (`ThreadScheduling.lowPriorityBackground`), so
/// its batches wait while a client, an upstream or an event loop wants the CPU. A batch of four early batches or more
/// (the writer behind) is written at normal priority on a `CatchUpLane`, until the queue is short again.
///
/// **Crash-loss window** (decision 0027): a record is durable once its batch commits, so a crash of the process
/// loses at most the records of the last `flushInterval` (25 ms on SQLite, 1 s on PostgreSQL by default) plus the
/// batch being written; SQLite's
/// `synchronous=NORMAL` in WAL mode keeps committed batches across a process crash (a power loss may also lose the
/// last commits). When the store fails, the batch stays queued and is retried, after twice as long at each failure in
/// a row, up to 5 s (`RetryBackoff`, decision 0097: not 40 times a second, each a warning, nor at every record that
/// wakes the writer); beyond `maxQueued` records new ones are dropped and counted (a log line says how many), never
/// blocking a request. What the store has not taken when the gateway stops (a database outage, a full disk) is kept in
/// `<state_dir>/ledger-spool/` and written by the next start (`LedgerSpool`, decision 0149), not dropped.
///
/// **Release** (decision 0109): written records go back to the threads that queued them (`releaseSomeWritten`, called
/// by an event loop while it spins for an upstream answer), so the writer never frees buffers in a loop's malloc arena.
final class UsageLedger: Sendable {
    struct Stats: Sendable, Equatable {
        var queued = 0
        var written = 0
        var dropped = 0
        var failedWrites = 0
        /// Times the writer woke (by a record, a full batch, the interval, a flush or a close).
        var writerWakes = 0
    }

    private struct Queue {
        /// With the threads that queued them, so each gets its records back to release (decision 0109).
        var pending = OwnedItems<UsageRecord>()
        var stats = Stats()
        var enqueued = 0
        var closed = false
        var finished = false
        /// The writer holds a batch it took and has not yet written or put back.
        var writing = false
        /// The writer sleeps with nothing queued: the next record wakes it.
        var writerIdle = false
        /// Written records, handed back for the threads that queued them to release (decision 0109).
        var writtenRecords = HandedBackItems<UsageRecord>()
    }

    private let store: any StateStore
    private let flushInterval: Duration
    private let batchSize: Int
    private let maxQueued: Int
    private let onProblem: @Sendable (String, Int) -> Void
    /// Where records not written by the stop are kept for the next start, and taken up from (decision 0149), and agent
    /// runs under way keep their row in case the gateway is killed (decision 0151); nil: they are dropped at the stop,
    /// and reported.
    let spool: LedgerSpool?
    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let catchUp: CatchUpLane
    /// `queue`'s `writtenRecords.count`, readable without the lock (nothing to release: no lock taken).
    private let recordsHandedBack = Atomic(0)
    /// A batch of at least this many records (four early batches) means the low-priority writer is behind: it is
    /// written at normal priority on `catchUp`.
    private let catchUpRecords: Int

    /// Records per early write on the embedded SQLite store.
    static let embeddedBatch = 512
    /// Records per early write on a shared PostgreSQL database.
    static let sharedDatabaseBatch = 4096

    /// - Parameter onProblem: told (off the request path) when records were dropped or a write failed, with a count.
    /// - Parameter spool: where records the stop could not write are kept, and those an earlier stop kept are taken up.
    init(store: any StateStore, flushInterval: Duration = .seconds(1), batchSize: Int = embeddedBatch, maxQueued: Int = 100_000,
         spool: LedgerSpool? = nil, onProblem: @escaping @Sendable (String, Int) -> Void = { _, _ in }) {
        self.store = store
        self.spool = spool
        self.flushInterval = flushInterval
        self.batchSize = batchSize
        self.maxQueued = maxQueued
        self.onProblem = onProblem
        catchUpRecords = 4 * batchSize
        catchUp = CatchUpLane(name: "sg-ledger-catch")
        DetachedThread.start(name: "sg-ledger", scheduling: .lowPriorityBackground) { [self] in run() }
    }

    /// Queues `records` (one request's); never blocks on the store.
    func record(_ records: [UsageRecord]) {
        guard !records.isEmpty else { return }
        let me = HandedBackItems<UsageRecord>.currentOwner
        let signal = queue.locked { q -> Bool in
            guard !q.closed else { return false }
            guard q.pending.count + records.count <= maxQueued else {
                q.stats.dropped += records.count
                return false
            }
            q.pending.append(contentsOf: records, by: me)
            q.enqueued += records.count
            q.stats.queued = q.pending.count
            if q.writerIdle {
                q.writerIdle = false
                return true
            }
            return q.pending.count >= batchSize
        }
        if signal { wake.signal() }
    }

    /// Releases up to two written records that the calling thread queued (decision 0109). An event loop calls it while
    /// it spins for an upstream answer, so the records' buffers go back to its own malloc arena in time it would yield
    /// anyway; records not released so by the writer's next batch are released by the writer.
    func releaseSomeWritten() {
        guard recordsHandedBack.load(ordering: .relaxed) > 0 else { return }
        let me = HandedBackItems<UsageRecord>.currentOwner
        // Released here, after the lock.
        _ = queue.locked { q -> (UsageRecord?, UsageRecord?, [UsageRecord]?) in
            let taken = q.writtenRecords.takeSome(for: me)
            recordsHandedBack.store(q.writtenRecords.count, ordering: .relaxed)
            return taken
        }
    }

    /// Counters for `/metrics` and tests.
    var stats: Stats { queue.locked { $0.stats } }

    /// Writes what is queued now and waits (at most `timeout`) until it is in the store. For shutdown and tests.
    func flush(timeout: Duration = .seconds(5)) {
        let target = queue.locked { $0.enqueued }
        wake.signal()
        let deadline = ContinuousClock.now + timeout
        while queue.locked({ $0.stats.written + $0.stats.dropped < target && !$0.finished }) && ContinuousClock.now < deadline {
            usleep(500)
        }
    }

    /// How long `close` waits for the writer's last attempt once the queue is closed.
    static let closeWait: Duration = .seconds(10)

    /// Writes what is queued and stops the writer; later records are dropped. What could not be written (the store
    /// failing) is kept in the spool for the next start (decision 0149), else dropped and reported.
    ///
    /// Waits for the writer's last attempt only when something is left to keep (the store failing): a ledger that wrote
    /// everything returns at once, so a stop does not hold its thread while a busy machine schedules the low-priority
    /// writer (a gateway's shutdown runs on the shared task pool). Without a spool too: a batch the writer held at the
    /// stop was otherwise neither written nor counted as dropped, and the writer told of the stop's drops again, as
    /// the store falling behind, after the stop had.
    func close() {
        flush()
        let settled = queue.locked { q -> Bool in
            q.closed = true
            return q.pending.isEmpty && !q.writing
        }
        wake.signal()
        guard !settled else { return keepWhatIsLeft() }
        let deadline = ContinuousClock.now + Self.closeWait
        while !queue.locked({ $0.finished }) && ContinuousClock.now < deadline { usleep(1_000) }
        keepWhatIsLeft()
    }

    /// At the stop: the records still queued go to the spool, with the batch at their front whose commit was lost
    /// unheard (the next start asks the server about it first); else they are dropped. Either is reported.
    private func keepWhatIsLeft() {
        let left = queue.locked { q -> [UsageRecord] in
            let items = q.pending.items
            q.pending = OwnedItems()
            q.stats.queued = 0
            return items
        }
        guard !left.isEmpty else { return }
        guard let spool else {
            queue.locked { $0.stats.dropped += left.count }
            return onProblem("usage records dropped at the stop: the state store could not take them", left.count)
        }
        var unsettled: (transactionId: String, count: Int)?
        if let batch = store.unsettledUsage(), batch.records.count <= left.count, Array(left.prefix(batch.records.count)) == batch.records {
            unsettled = (batch.transactionId, batch.records.count)
        }
        do {
            let path = try spool.save(left, unsettled: unsettled)
            onProblem("usage records the state store could not take before the stop are kept in \(path); the next start writes them", left.count)
        } catch {
            queue.locked { $0.stats.dropped += left.count }
            onProblem("usage records dropped at the stop: the state store could not take them, and \(error)", left.count)
        }
    }

    /// Queues the records of the files an earlier stop spooled (`claimed`, oldest first), and removes each file once
    /// its records are queued (from then on they are queued records like any other: written in the next batches, kept in
    /// the spool again if this process stops before). A file that held a batch whose commit was lost unheard has the
    /// server asked about it first (the store skips what the batch committed): while the store fails, the file waits
    /// for the next try (false), and so do the files after it.
    private func takeUp(_ claimed: inout [LedgerSpool.Claimed]) -> Bool {
        guard let spool else { return true }
        while let file = claimed.first {
            var batch: LedgerSpool.Batch
            do {
                batch = try spool.load(file)
            } catch {
                let path = spool.setAside(file)
                onProblem("a file of usage records kept at an earlier stop cannot be read (\(error)); it is set aside as \(path) and its records are not counted", 0)
                claimed.removeFirst()
                continue
            }
            if let unsettled = batch.unsettled {
                let head = Array(batch.records.prefix(unsettled.count))
                store.resumeUnsettledUsage(UnsettledUsageBatch(transactionId: unsettled.transactionId, records: head))
                do {
                    try store.recordUsage(head)
                } catch {
                    onProblem("usage records kept at an earlier stop wait for the state store (\(error))", batch.records.count)
                    return false
                }
                batch.records.removeFirst(unsettled.count)
            }
            let me = HandedBackItems<UsageRecord>.currentOwner
            queue.locked { q in
                q.pending.append(contentsOf: batch.records, by: me)
                q.enqueued += batch.records.count
                q.stats.queued = q.pending.count
            }
            spool.remove(file)
            onProblem("usage records kept at an earlier stop are queued to be written", batch.records.count)
            claimed.removeFirst()
        }
        return true
    }

    private func run() {
        let intervalNs = Int(flushInterval.components.seconds) * 1_000_000_000 + Int(flushInterval.components.attoseconds / 1_000_000_000)
        var lastReportedDrops = 0
        var backoff = RetryBackoff(interval: flushInterval)
        var spooled = spool?.claim() ?? []
        while true {
            if !spooled.isEmpty && !takeUp(&spooled) {
                if queue.locked({ $0.closed }) { return finish(givingBack: spooled) }
                backoff.failed()
                sleepUnlessClosed(backoff.wait)
                continue
            }
            let idle = queue.locked { q -> Bool in
                q.writerIdle = q.pending.isEmpty && !q.closed
                return q.writerIdle
            }
            if idle {
                // The record that ends the wait signals it; then the batch gathers for one interval (unless it is
                // full already, or a close or flush woke the writer).
                wake.wait()
                let gather = queue.locked { q -> Bool in
                    q.writerIdle = false
                    return !q.closed && !q.pending.isEmpty && q.pending.count < batchSize
                }
                if gather { _ = wake.wait(timeout: .now() + .nanoseconds(intervalNs)) }
            } else {
                _ = wake.wait(timeout: .now() + .nanoseconds(intervalNs))
            }
            queue.locked { $0.stats.writerWakes += 1 }
            var (batch, closed, dropped) = takeBatch()
            // A batch of `catchUpRecords` or more: records come faster than this low-priority thread writes them, so
            // they are written at normal priority until the queue is short again (decision 0060).
            let written: Bool
            if batch.count >= catchUpRecords {
                written = catchUp.run { [self, batch] in writeUntilCaughtUp(batch) }
            } else {
                written = write(&batch)
            }
            if !written {
                if closed { return finish() }
                backoff.failed()
                sleepUnlessClosed(backoff.wait)
                continue
            }
            backoff.succeeded()
            if dropped > lastReportedDrops {
                onProblem("usage records dropped: the state store fell behind (raise ledger.max_queued or check the disk)", dropped - lastReportedDrops)
                lastReportedDrops = dropped
            }
            if closed && queue.locked({ $0.pending.isEmpty }) { return finish() }
        }
    }

    /// Waits `duration` after a failed write; records that wake the writer meanwhile do not end the wait, a close does.
    private func sleepUnlessClosed(_ duration: Duration) {
        let deadline = DispatchTime.now() + .nanoseconds(Int(duration / .nanoseconds(1)))
        while DispatchTime.now() < deadline {
            _ = wake.wait(timeout: deadline)
            if queue.locked({ $0.closed }) { return }
        }
    }

    /// Takes what is queued.
    private func takeBatch() -> (batch: OwnedItems<UsageRecord>, closed: Bool, dropped: Int) {
        queue.locked { q -> (OwnedItems<UsageRecord>, Bool, Int) in
            // Swapped out, not copied and emptied: the next record's thread makes the next buffer (decision 0109).
            var batch = OwnedItems<UsageRecord>()
            swap(&batch, &q.pending)
            q.writing = !batch.isEmpty
            return (batch, q.closed, q.stats.dropped)
        }
    }

    /// Writes `batch` in one transaction and hands it back to be released by the threads that queue records (decision
    /// 0109; `batch` is left with what this thread releases). On failure puts it back at the front of the queue
    /// (bounded by `maxQueued`), reports it, and returns false.
    private func write(_ batch: inout OwnedItems<UsageRecord>) -> Bool {
        guard !batch.isEmpty else { return true }
        do {
            try store.recordUsage(batch.items)
            // A batch not all taken yet comes back, to be released here after the lock.
            _ = queue.locked { q in
                q.writing = false
                q.stats.written += batch.count
                q.stats.queued = q.pending.count
                let unreleased = q.writtenRecords.handBack(&batch)
                recordsHandedBack.store(q.writtenRecords.count, ordering: .relaxed)
                return unreleased
            }
            return true
        } catch {
            // Back to the front of the queue (in order), to be retried; bounded by maxQueued.
            let requeueDropped = queue.locked { q -> Int in
                q.writing = false
                q.stats.failedWrites += 1
                let room = max(0, maxQueued - q.pending.count)
                let kept = batch.prefix(room)
                q.pending.prepend(kept)
                q.stats.dropped += batch.count - kept.count
                q.stats.queued = q.pending.count
                return batch.count - kept.count
            }
            onProblem("usage ledger write failed (\(error)); the records stay queued and are retried", batch.count - requeueDropped)
            return false
        }
    }

    /// Writes `batch`, then what is queued meanwhile, while batches stay a quarter of `catchUpRecords` or more; false
    /// when a write failed (its records are queued again).
    private func writeUntilCaughtUp(_ batch: OwnedItems<UsageRecord>) -> Bool {
        var next = batch
        while true {
            let count = next.count
            guard write(&next) else { return false }
            guard count >= catchUpRecords / 4 else { return true }
            next = takeBatch().batch
        }
    }

    /// Batches written on the catch-up lane so far (for tests).
    var catchUps: Int { catchUp.jobsRun }

    /// Written records waiting for the next queued records' threads to release them (for tests).
    var recordsAwaitingRelease: Int { queue.locked { $0.writtenRecords.count } }

    /// Ends the writer; spooled files it took and did not queue are given back for the next start.
    private func finish(givingBack spooled: [LedgerSpool.Claimed] = []) {
        spooled.forEach { spool?.giveBack($0) }
        catchUp.close()
        queue.locked { $0.finished = true }
    }
}
