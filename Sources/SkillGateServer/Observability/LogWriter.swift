import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import Synchronization

/// Writes log lines on a thread of its own, so an event loop never formats a line or waits on the log's file
/// descriptor (a pipe to a slow reader, a full disk, a terminal). Lines keep their order; a burst beyond
/// `capacity` pending lines, or beyond `byteCapacity` bytes of them (`Line.approximateBytes`), is dropped and counted,
/// and the count is written as a line of its own once the writer catches up — the request path never blocks on the
/// log, and a stalled reader holds a bounded amount of memory.
///
/// The writer lingers (`linger`, 5 ms by default) before it takes each batch from the queue, so under load it wakes
/// and writes at most about 200 times a second instead of once per request (each wake-up is a futex call on the loop thread and a
/// context switch; at thousands of requests per second they cost more than the lines). A line reaches the log at
/// most `linger` plus one write after its request ended; a crash loses at most those lines.
///
/// The writer runs at a lowered priority (`ThreadScheduling.lowPriorityBackground`, decision 0060), so its batches
/// wait while a client, an upstream or an event loop wants the CPU; a batch of `catchUpLines` or more (the writer
/// behind) is written at normal priority on a `CatchUpLane`.
///
/// Written lines are not released here: they go back to the threads that queued them (`releaseSomeWritten`, called by
/// an event loop while it spins for an upstream answer), so this thread never frees buffers in a loop's malloc arena
/// (decision 0109).
final class LogWriter: Sendable {
    /// One pending line: a request entry (formatted on the writer thread) or an event already built.
    enum Line: Sendable {
        /// Boxed (`indirect`): a line is then a pointer, cheap to queue, move and hand back (an entry is ~720 bytes).
        indirect case entry(RequestLogEntry)
        case event(JSONValue)

        /// About how many bytes the line holds while it waits (an event is built by the gateway: small).
        var approximateBytes: Int {
            switch self {
            case .entry(let entry): entry.approximateBytes
            case .event: 1_024
            }
        }
    }

    private struct Queue {
        /// With the threads that queued them, so each gets its lines back to release (decision 0109).
        var pending = OwnedItems<Line>()
        /// `approximateBytes` of the pending lines.
        var pendingBytes = 0
        var enqueued = 0
        var written = 0
        var dropped = 0
        var writerAsleep = false
        var closed = false
        /// Batches written (write(2) calls unless a pipe takes a batch in parts).
        var batches = 0
        /// Written lines, handed back for the threads that queued them to release (decision 0109).
        var writtenLines = HandedBackItems<Line>()
    }

    /// The writer's own descriptor of the log (a duplicate of the one it was given), closed by its thread after the last
    /// write: the caller may close its descriptor as soon as `close()` returns, even while a batch late on a loaded
    /// machine is still being written — a write to a closed descriptor number lands in whatever file or socket reuses
    /// it. The descriptor given when it could not be duplicated (then never closed here).
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let capacity: Int
    private let byteCapacity: Int
    private let lingerMicroseconds: UInt32
    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let catchUp: CatchUpLane
    /// `queue`'s `writtenLines.count`, readable without the lock (nothing to release: no lock taken).
    private let linesHandedBack = Atomic(0)

    /// - Parameters:
    ///   - capacity: the most lines waiting to be written.
    ///   - byteCapacity: the most bytes they hold (`Line.approximateBytes`): 32 MiB by default, ~20,000 typical lines.
    init(fd: Int32, capacity: Int = 50_000, byteCapacity: Int = 32 << 20, linger: Duration = .milliseconds(5)) {
        let duplicate = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        self.fd = duplicate >= 0 ? duplicate : fd
        ownsDescriptor = duplicate >= 0
        self.capacity = capacity
        self.byteCapacity = byteCapacity
        lingerMicroseconds = UInt32(linger.components.seconds * 1_000_000 + linger.components.attoseconds / 1_000_000_000_000)
        catchUp = CatchUpLane(name: "sg-log-catchup")
        DetachedThread.start(name: "sg-log", scheduling: .lowPriorityBackground) { [self] in run() }
    }

    /// Queues `line`; never blocks.
    func enqueue(_ line: Line) {
        let bytes = line.approximateBytes
        let me = HandedBackItems<Line>.currentOwner
        let signal = queue.locked { q -> Bool in
            guard !q.closed else { return false }
            if q.pending.count >= capacity || q.pendingBytes + bytes > byteCapacity {
                q.dropped += 1
                return false
            }
            q.pending.append(line, by: me)
            q.pendingBytes += bytes
            q.enqueued += 1
            let asleep = q.writerAsleep
            q.writerAsleep = false
            return asleep
        }
        if signal { wake.signal() }
    }

    /// Releases up to two written lines that the calling thread queued (decision 0109). An event loop calls it while it
    /// spins for an upstream answer, so the lines' buffers go back to its own malloc arena in time it would yield
    /// anyway; lines not released so by the writer's next batch are released by the writer.
    func releaseSomeWritten() {
        guard linesHandedBack.load(ordering: .relaxed) > 0 else { return }
        let me = HandedBackItems<Line>.currentOwner
        // Released here, after the lock.
        _ = queue.locked { q -> (Line?, Line?, [Line]?) in
            let taken = q.writtenLines.takeSome(for: me)
            linesHandedBack.store(q.writtenLines.count, ordering: .relaxed)
            return taken
        }
    }

    /// Waits (at most `timeout`) until every line queued before the call is written. For shutdown and tests.
    func flush(timeout: Duration = .seconds(2)) {
        let target = queue.locked { $0.enqueued }
        let deadline = ContinuousClock.now + timeout
        while queue.locked({ $0.written < target }) && ContinuousClock.now < deadline {
            usleep(500)
        }
    }

    /// Writes what is queued (waiting for it at most 2 s) and ends the writer thread, which closes its descriptor of the
    /// log after its last write.
    func close() {
        flush()
        queue.locked { $0.closed = true }
        wake.signal()
    }

    private func run() {
        while true {
            let idle = queue.locked { q -> Bool in
                guard q.pending.isEmpty && q.dropped == 0 && !q.closed else { return false }
                q.writerAsleep = true
                return true
            }
            if idle { wake.wait() }
            // Let the lines of the requests finishing now gather: one wake-up and one write for all of them.
            if lingerMicroseconds > 0 { usleep(lingerMicroseconds) }
            var (lines, dropped, closed) = takePending()
            if lines.isEmpty && dropped == 0 {
                if closed {
                    catchUp.close()
                    if ownsDescriptor { Glibc.close(fd) }
                    return
                }
                continue
            }
            guard lines.count >= Self.catchUpLines else {
                write(&lines, dropped: dropped)
                continue
            }
            // Lines come faster than this low-priority thread writes them: write at normal priority, in order, until
            // the batches are small again (decision 0060).
            catchUp.run { [self, lines, dropped] in writeUntilCaughtUp(lines, dropped: dropped) }
        }
    }

    /// Takes the pending lines and the count of lines dropped since the last batch.
    private func takePending() -> (lines: OwnedItems<Line>, dropped: Int, closed: Bool) {
        queue.locked { q -> (OwnedItems<Line>, Int, Bool) in
            // Swapped out, not copied and emptied: the next line's thread makes the next buffer (decision 0109).
            var batch = OwnedItems<Line>()
            swap(&batch, &q.pending)
            let dropped = q.dropped
            q.pendingBytes = 0
            q.dropped = 0
            return (batch, dropped, q.closed)
        }
    }

    /// Formats `lines` (and a line telling of `dropped` ones) and writes them with one `write(2)` where it can, then
    /// hands them back to be released by the threads that queue lines (decision 0109); `lines` is left with what this
    /// thread releases.
    private func write(_ lines: inout OwnedItems<Line>, dropped: Int) {
        guard !lines.isEmpty || dropped > 0 else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.count * 640)   // a request's line is 400–600 bytes
        for line in lines.items { append(line, to: &bytes) }
        if dropped > 0 {
            append(.event(["time": .string(RequestLog.timestamp(Date())), "level": "warn",
                           "event": "log lines dropped: the log's reader fell behind",
                           "dropped": .int(dropped)]), to: &bytes)
        }
        writeAll(bytes)
        // A batch not all taken yet comes back, to be released here after the lock.
        _ = queue.locked { q in
            q.written += lines.count
            q.batches += 1
            let unreleased = q.writtenLines.handBack(&lines)
            linesHandedBack.store(q.writtenLines.count, ordering: .relaxed)
            return unreleased
        }
    }

    /// Writes `lines`, then what is queued meanwhile, while batches stay a quarter of `catchUpLines` or more.
    private func writeUntilCaughtUp(_ lines: OwnedItems<Line>, dropped: Int) {
        var (next, nextDropped) = (lines, dropped)
        while true {
            let count = next.count
            write(&next, dropped: nextDropped)
            guard count >= Self.catchUpLines / 4 else { return }
            (next, nextDropped, _) = takePending()
        }
    }

    /// A batch of at least this many lines means the low-priority writer is behind: it is written on the catch-up
    /// lane's thread, at normal priority.
    static let catchUpLines = 2048

    /// Batches written on the catch-up lane so far (for tests).
    var catchUps: Int { catchUp.jobsRun }

    /// `approximateBytes` of the lines waiting now (for tests).
    var pendingBytes: Int { queue.locked { $0.pendingBytes } }

    /// Batches written so far (for tests).
    var batchesWritten: Int { queue.locked { $0.batches } }

    /// Written lines waiting for the next queued lines' threads to release them (for tests).
    var linesAwaitingRelease: Int { queue.locked { $0.writtenLines.count } }

    private func append(_ line: Line, to bytes: inout [UInt8]) {
        switch line {
        case .entry(let entry): entry.writeJSON(to: &bytes)
        case .event(let value): value.write(to: &bytes)
        }
        bytes.append(0x0A)
    }

    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                offset += n
            }
        }
    }
}
