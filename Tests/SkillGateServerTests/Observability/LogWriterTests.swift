import Foundation
import SkillGateCore
@testable import SkillGateServer
import Testing
import SkillGateTestSupport

/// The log is written off the event loops: lines keep their order, a blocked reader never blocks the caller,
/// and what cannot be queued is counted and reported.
@Suite struct LogWriterTests {
    private func pipeFDs() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    private static func readBytes(_ fd: Int32) -> [UInt8] {
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }

    private static func lines(_ bytes: [UInt8]) -> [JSONValue] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
    }

    private func readAll(_ fd: Int32) -> [JSONValue] { Self.lines(Self.readBytes(fd)) }

    @Test func linesArriveInOrderAfterAFlush() async throws {
        let (r, w) = try pipeFDs()
        defer { close(r); close(w) }
        let writer = LogWriter(fd: w)
        for i in 0..<200 { writer.enqueue(.event(["n": .int(i)])) }
        await writer.flushOffThePool()
        let lines = readAll(r)
        #expect(lines.compactMap { $0["n"]?.intValue } == Array(0..<200))
        await writer.closeOffThePool()
    }

    /// A batch of `catchUpLines` or more means the low-priority writer is behind (decision 0060): it is written on the
    /// catch-up lane's thread, still in order, and the lane goes on while the backlog lasts.
    @Test func aBacklogIsWrittenInOrderOnTheCatchUpLane() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/log.jsonl"
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            try #require(fd >= 0)
            defer { close(fd) }
            // A long linger lets the whole backlog gather into one batch (also when the enqueueing runs slowly: a
            // sanitizer, a loaded machine).
            let writer = LogWriter(fd: fd, linger: .seconds(2))
            let count = LogWriter.catchUpLines * 2 + 100
            for i in 0..<count { writer.enqueue(.event(["n": .int(i)])) }
            await writer.flushOffThePool(timeout: .seconds(10))
            #expect(writer.catchUps >= 1)
            let written = Self.lines(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(written.compactMap { $0["n"]?.intValue } == Array(0..<count))
            await writer.closeOffThePool()
        }
    }

    /// A batch below `catchUpLines` is written by the writer's own (low-priority) thread.
    @Test func aSmallBatchStaysOnTheWritersOwnThread() async throws {
        let (r, w) = try pipeFDs()
        defer { close(r); close(w) }
        let writer = LogWriter(fd: w)
        for i in 0..<100 { writer.enqueue(.event(["n": .int(i)])) }
        await writer.flushOffThePool()
        #expect(readAll(r).count == 100)
        #expect(writer.catchUps == 0)
        await writer.closeOffThePool()
    }

    /// Lines of requests ending close together are written together: every batch waits `linger` first, so the
    /// writer wakes and writes at most once per linger, however many lines arrive (here one per 0.1 ms).
    @Test func linesArrivingCloseTogetherShareOneWrite() async throws {
        let (r, w) = try pipeFDs()
        defer { close(r); close(w) }
        let writer = LogWriter(fd: w, linger: .milliseconds(20))
        // The lines' pauses and the flush's wait for the writer run on a thread of their own (`offThePool`).
        let elapsed = try await offThePool { () -> Duration in
            let started = ContinuousClock.now
            for i in 0..<400 {
                writer.enqueue(.event(["n": .int(i)]))
                usleep(100)
            }
            writer.flush()
            return ContinuousClock.now - started
        }
        #expect(readAll(r).compactMap { $0["n"]?.intValue } == Array(0..<400))
        let bound = Int(elapsed / .milliseconds(20)) + 1
        #expect(writer.batchesWritten <= bound, "\(writer.batchesWritten) writes in \(elapsed)")
        #expect(writer.batchesWritten < 400)
        await writer.closeOffThePool()
    }

    @Test func aRequestEntryIsFormattedOnTheWriterThread() async throws {
        let (r, w) = try pipeFDs()
        defer { close(r); close(w) }
        let writer = LogWriter(fd: w)
        writer.enqueue(.entry(RequestLogEntry(requestId: "req_1", method: "POST", path: "/v1/chat/completions", status: 429)))
        await writer.closeOffThePool()
        let line = try #require(readAll(r).first)
        #expect(line["request_id"]?.stringValue == "req_1")
        #expect(line["level"]?.stringValue == "warn")
    }

    /// Nobody reads the pipe: the writer thread blocks in write(2) once the pipe is full, yet enqueueing stays
    /// immediate, and lines past the capacity are dropped and counted instead of waiting.
    @Test func aStalledReaderNeverBlocksTheCallerAndOverflowIsCounted() async throws {
        let (r, w) = try pipeFDs()
        defer { close(r); close(w) }
        let writer = LogWriter(fd: w, capacity: 100)
        // The enqueueing and the polling drain run on a thread of their own (`offThePool`): a loop of reads and
        // sleeps for up to seconds would otherwise hold a cooperative-pool thread the other tests need.
        let (enqueueing, seen) = try await offThePool { () -> (Duration, [JSONValue]) in
            let padding = JSONValue.string(String(repeating: "x", count: 4000))
            let started = ContinuousClock.now
            for i in 0..<1_000 { writer.enqueue(.event(["n": .int(i), "pad": padding])) }
            let enqueueing = ContinuousClock.now - started
            // Drain the pipe so the writer catches up and reports what it dropped.
            var seen: [JSONValue] = []
            var pending: [UInt8] = []
            let deadline = ContinuousClock.now + .seconds(5)
            var quietSince = ContinuousClock.now
            while ContinuousClock.now < deadline {
                let more = Self.readBytes(r)
                if !more.isEmpty {
                    quietSince = ContinuousClock.now
                    pending += more
                    // Whole lines only; a line cut by the read waits for its end.
                    if let end = pending.lastIndex(of: 0x0A) {
                        seen += Self.lines(Array(pending[...end]))
                        pending.removeSubrange(...end)
                    }
                }
                if seen.contains(where: { $0["dropped"] != nil }) && ContinuousClock.now - quietSince > .milliseconds(300) { break }
                usleep(2_000)
            }
            return (enqueueing, seen)
        }
        #expect(enqueueing < .milliseconds(500))
        let written = seen.filter { $0["n"] != nil }.count
        let dropped = seen.compactMap { $0["dropped"]?.intValue }.reduce(0, +)
        #expect(dropped > 0)
        #expect(written + dropped == 1_000)
        await writer.closeOffThePool()
    }

    /// A stalled reader holds at most `byteCapacity` bytes of lines, whatever their size: lines past it are dropped and
    /// counted like lines past the count. A request's target is kept within `RequestLogEntry.targetWindow`.
    @Test func aStalledReaderHoldsAtMostTheByteCapacity() async throws {
        let (r, w) = try pipeFDs()
        defer { close(r); close(w) }
        let writer = LogWriter(fd: w, capacity: 100_000, byteCapacity: 256 << 10)
        // The 120 MB of long targets and the polling drain run on a thread of their own (`offThePool`), not on one
        // the suite's tasks share.
        let (largest, bytes) = try await offThePool { () -> (Int, [UInt8]) in
            var largest = 0
            for i in 0..<2_000 {
                writer.enqueue(.entry(RequestLogEntry(requestId: "req_\(i)", method: "GET", target: "/" + String(repeating: "a", count: 60_000))))
                largest = max(largest, writer.pendingBytes)
            }
            // Drain the pipe: the lines that waited are written, then one telling how many were dropped.
            var bytes: [UInt8] = []
            let deadline = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < deadline, !(bytes.count > 0 && Self.lines(bytes).contains { $0["dropped"] != nil }) {
                bytes += Self.readBytes(r)
                usleep(2_000)
            }
            return (largest, bytes)
        }
        #expect(largest <= 256 << 10, "\(largest) bytes waited")
        #expect(largest > 128 << 10, "the queue filled up to its bound: \(largest) bytes")
        let seen = Self.lines(bytes)
        let written = seen.filter { $0["request_id"] != nil }
        let dropped = seen.compactMap { $0["dropped"]?.intValue }.reduce(0, +)
        #expect(dropped > 1_000 && written.count + dropped == 2_000, "\(written.count) written, \(dropped) dropped")
        let path = try #require(written.first?["path"]?.stringValue)
        #expect(path.utf8.count == 768 + " … ".utf8.count + 256 && path.contains(" … "))
        await writer.closeOffThePool()
    }

    /// Written lines are handed back, not released on the writer's thread: the thread that queued them releases them,
    /// two at a time, when it has time (an event loop spinning for an upstream answer), so no writer frees a loop's
    /// buffers in the loop's malloc arena (decision 0109). At most one batch waits; one not released yet is released by
    /// the writer when it hands back the next.
    @Test func writtenLinesAreReleasedByTheThreadThatQueuedThem() async throws {
        let (r, w) = try pipeFDs()
        defer { close(r); close(w) }
        // A long linger: the writer takes the next line long after the counts below are read. The flushes wait for it,
        // so the test runs on a thread of its own (`offThePool`), not on one of the few the suite's tasks share.
        let writer = LogWriter(fd: w, linger: .seconds(2))
        let counts = try await offThePool { () -> [Int] in
            var counts: [Int] = []
            for i in 0..<10 { writer.enqueue(.event(["n": .int(i)])) }
            writer.flush(timeout: .seconds(10))
            counts.append(writer.linesAwaitingRelease)
            writer.releaseSomeWritten()
            counts.append(writer.linesAwaitingRelease)
            // Another thread has none of these to release.
            let elsewhere = Thread { writer.releaseSomeWritten() }
            elsewhere.start()
            usleep(100_000)
            counts.append(writer.linesAwaitingRelease)
            writer.enqueue(.event(["n": .int(10)]))
            counts.append(writer.linesAwaitingRelease)
            writer.flush(timeout: .seconds(10))
            // The newest batch waits now; what was left of the one before went back to the writer.
            counts.append(writer.linesAwaitingRelease)
            return counts
        }
        #expect(counts == [10, 8, 8, 8, 1])
        #expect(readAll(r).compactMap { $0["n"]?.intValue } == Array(0...10))
        await writer.closeOffThePool()
    }

    /// A batch still being written when `close()` gives up waiting (a reader that does not read, a loaded machine) goes
    /// to the log, never to whatever reuses the descriptor's number once its owner closed it. Before the writer held a
    /// descriptor of its own, the rest of the batch went into the file or socket that took the number (here a second
    /// pipe; in the parallel tests, any test's connection).
    @Test func aBatchWrittenAfterCloseGivesUpGoesToTheLogNotToTheNumbersNextOwner() async throws {
        let first = try pipeFDs()
        let writer = LogWriter(fd: first.write, linger: .zero)
        // More than the pipe holds (64 KiB): the writer blocks in write(2) until the test reads.
        let count = 400
        for i in 0..<count { writer.enqueue(.event(["n": .int(i), "pad": .string(String(repeating: "x", count: 500))])) }
        await writer.closeOffThePool()   // gives up waiting after 2 s; the writer is still blocked
        // The owner closes its descriptor, and the number goes to another pipe's write end at once.
        let second = try pipeFDs()
        #expect(dup2(second.write, first.write) == first.write)
        close(second.write)
        let reusedNumber = first.write
        defer { close(reusedNumber); close(second.read) }
        // Reading the log lets the writer go on; it ends with its own descriptor, so the read ends too.
        let log = try await offThePool { () -> [UInt8] in
            _ = fcntl(first.read, F_SETFL, 0)
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            var idleReads = 0
            while idleReads < 3 {
                var poller = pollfd(fd: first.read, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 2_000) == 1 else { idleReads += 1; continue }
                let n = read(first.read, &buffer, buffer.count)
                if n <= 0 { break }
                out += buffer[0..<n]
            }
            return out
        }
        close(first.read)
        try await Task.sleep(for: .milliseconds(200))
        let strayed = Self.readBytes(second.read)
        #expect(strayed.count == 0, "\(strayed.count) bytes of the log went to the descriptor number's next owner")
        #expect(Self.lines(log).compactMap { $0["n"]?.intValue } == Array(0..<count))
    }
}
