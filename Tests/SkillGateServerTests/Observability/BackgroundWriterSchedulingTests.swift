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
    /// The time slices of this process's threads named `name`, by `/proc/self/task`.
    private static func slices(ofThreadsNamed name: String) -> [UInt64?] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { tid -> UInt64?? in
            guard let comm = try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8),
                  comm.trimmingCharacters(in: .whitespacesAndNewlines) == name, let id = Int32(tid) else { return nil }
            return .some(ThreadScheduling.sliceNanoseconds(ofThread: id))
        }
    }

    /// The nice values of this process's threads named `name`.
    private static func niceValues(ofThreadsNamed name: String) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { tid -> Int32? in
            guard let comm = try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8),
                  comm.trimmingCharacters(in: .whitespacesAndNewlines) == name, let id = Int32(tid) else { return nil }
            return ThreadScheduling.nice(ofThread: id)
        }
    }

    @Test func theWritersRunAtLowPriorityAndTheirCatchUpLanesAtTheirMakersPriority() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let writer = LogWriter(fd: fds[1])
        let maker = ThreadScheduling.nice()
        try withTemporaryDirectory { dir in
            let ledger = UsageLedger(store: try SQLiteStateStore(stateDirectory: dir), flushInterval: .milliseconds(20))
            writer.enqueue(.event(["n": .int(1)]))
            writer.flush()
            ledger.flush()
            for name in ["sg-log", "sg-ledger"] {
                let seen = Self.niceValues(ofThreadsNamed: name)
                #expect(!seen.isEmpty, "no thread named \(name)")
                #expect(seen.allSatisfy { $0 == ThreadScheduling.lowPriorityNice }, "\(name): \(seen)")
            }
            for name in ["sg-log-catchup", "sg-ledger-catch"] {
                let seen = Self.niceValues(ofThreadsNamed: name)
                #expect(!seen.isEmpty, "no thread named \(name)")
                // Lanes of writers made by this suite's threads; other suites' threads have the same priority.
                #expect(seen.allSatisfy { $0 == maker }, "\(name): \(seen)")
            }
            ledger.close()
        }
        writer.close()
    }

    @Test func theLogAndLedgerWritersRunWithTheBackgroundSlice() throws {
        // A kernel that keeps no custom slices (before Linux 6.12) reports none for any thread: nothing to see.
        guard ThreadScheduling.currentThreadSliceNanoseconds != nil else { return }
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let writer = LogWriter(fd: fds[1])
        try withTemporaryDirectory { dir in
            let ledger = UsageLedger(store: try SQLiteStateStore(stateDirectory: dir), flushInterval: .milliseconds(20))
            // Both threads have started and run once they have done one round of work.
            writer.enqueue(.event(["n": .int(1)]))
            writer.flush()
            ledger.flush()
            for name in ["sg-log", "sg-ledger"] {
                let seen = Self.slices(ofThreadsNamed: name)
                #expect(!seen.isEmpty, "no thread named \(name)")
                // Other tests' writers run in this process too; every one of them is a background thread.
                #expect(seen.allSatisfy { $0 == ThreadScheduling.backgroundSliceNanoseconds }, "\(name): \(seen)")
            }
            ledger.close()
        }
        writer.close()
    }
}
