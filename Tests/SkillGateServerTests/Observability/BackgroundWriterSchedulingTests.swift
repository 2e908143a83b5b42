import Foundation
import SkillGateCore
import SkillGateState
@testable import SkillGateServer
import Testing
import SkillGateTestSupport

/// The log and usage ledger writers run as background threads (decision 0048): an event loop woken by a request
/// preempts them instead of waiting out their time slice. They also run at a lowered priority, and their catch-up
/// lanes at the priority of the thread that made them (decision 0060).
@Suite struct BackgroundWriterSchedulingTests {
    /// The name of this process's thread `tid`, or nil when it has ended.
    private static func name(ofThread tid: String) -> String? {
        (try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `value` of each of this process's threads named `name`, by `/proc/self/task`. A thread that ends while it is
    /// asked (another test's writer closing) is left out: it is still there, with its name, after the question.
    private static func values<T>(ofThreadsNamed name: String, _ value: (Int32) -> T) -> [T] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { tid -> T? in
            guard Self.name(ofThread: tid) == name, let id = Int32(tid) else { return nil }
            let answer = value(id)
            return Self.name(ofThread: tid) == name ? answer : nil
        }
    }

    /// Starts a log writer and a usage ledger, lets each do one round of work (so their threads have started and
    /// scheduled themselves), and runs `check` while they are alive. The waits for the low-priority writers (their
    /// flushes and closes) run off the shared task pool.
    private static func withRunningWriters(_ check: () -> Void) async throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let writer = LogWriter(fd: fds[1])
        do {
            try await withTemporaryDirectory { dir in
                let ledger = UsageLedger(store: try SQLiteStateStore(stateDirectory: dir), flushInterval: .milliseconds(20))
                writer.enqueue(.event(["n": .int(1)]))
                await writer.flushOffThePool()
                await ledger.flushOffThePool()
                check()
                await ledger.closeOffThePool()
            }
        } catch {
            await writer.closeOffThePool()
            throw error
        }
        await writer.closeOffThePool()
    }

    @Test func theWritersRunAtLowPriorityAndTheirCatchUpLanesAtTheirMakersPriority() async throws {
        let maker = ThreadScheduling.nice()
        try await Self.withRunningWriters {
            for name in ["sg-log", "sg-ledger"] {
                let seen = Self.values(ofThreadsNamed: name) { ThreadScheduling.nice(ofThread: $0) }
                #expect(!seen.isEmpty, "no thread named \(name)")
                #expect(seen.allSatisfy { $0 == ThreadScheduling.lowPriorityNice }, "\(name): \(seen)")
            }
            for name in ["sg-log-catchup", "sg-ledger-catch"] {
                let seen = Self.values(ofThreadsNamed: name) { ThreadScheduling.nice(ofThread: $0) }
                #expect(!seen.isEmpty, "no thread named \(name)")
                // Lanes of writers made by this suite's threads; other suites' threads have the same priority.
                #expect(seen.allSatisfy { $0 == maker }, "\(name): \(seen)")
            }
        }
    }

    @Test func theLogAndLedgerWritersRunWithTheBackgroundSlice() async throws {
        // A kernel that keeps no custom slices (before Linux 6.12) reports none for any thread: nothing to see.
        guard ThreadScheduling.currentThreadSliceNanoseconds != nil else { return }
        try await Self.withRunningWriters {
            for name in ["sg-log", "sg-ledger"] {
                let seen = Self.values(ofThreadsNamed: name) { ThreadScheduling.sliceNanoseconds(ofThread: $0) }
                #expect(!seen.isEmpty, "no thread named \(name)")
                // Other tests' writers run in this process too; every one of them is a background thread.
                #expect(seen.allSatisfy { $0 == ThreadScheduling.backgroundSliceNanoseconds }, "\(name): \(seen)")
            }
        }
    }
}
