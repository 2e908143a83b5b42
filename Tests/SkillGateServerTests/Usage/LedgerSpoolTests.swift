import Foundation
import Testing
import Synchronization
import SkillGateCore
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// Usage records the state store could not take before a stop are kept in `<state_dir>/ledger-spool/` and written at
/// the next start, once (decision 0149); before, they were dropped. A ledger whose store fails blocks its `close()` for
/// seconds (the last flush, the writer's last try): closed off the shared task pool, one test at a time, so the other
/// tests' tasks are not held meanwhile.
@Suite(.serialized) struct LedgerSpoolTests {
    static let full: UsageRecord = {
        var r = UsageRecord(occurredAt: Date(timeIntervalSince1970: 1_780_000_000.123), tokenId: "tok_a", requestId: "req_1", scenario: "chat",
                            provider: "up", model: "up/m", usage: Usage(inputTokens: 10, outputTokens: 5, cachedInputTokens: 3, cacheWriteTokens: 2, reasoningTokens: 1),
                            costMicrodollars: 1_234, durationMilliseconds: 56, outcome: "ok")
        r.kind = .run
        r.callIndex = 0
        r.tokenName = "app \"quoted\" ü"
        r.surface = "agent"
        r.stream = true
        r.status = 200
        r.attempts = 2
        r.skillsRun = ["clock", "notes.save"]
        r.admitted = true
        r.countedByCallRows = UsageSummary(requests: 0, inputTokens: 7, outputTokens: 4, costMicrodollars: 1_000)
        return r
    }()

    static let records: [UsageRecord] = {
        var call = full
        call.kind = .call
        call.callIndex = 2
        call.countedByCallRows = nil
        call.countsInRunningTotals = true
        call.admitted = nil
        let bare = UsageRecord(occurredAt: Date(timeIntervalSince1970: 1_780_000_001), outcome: "rate_limited")
        var refused = bare
        refused.admitted = false
        refused.costMicrodollars = nil
        return [full, call, bare, refused]
    }()

    @Test(arguments: records)
    func aRecordReadsBackAsItWasWritten(_ record: UsageRecord) throws {
        let line = record.spoolJSON().serialized()
        #expect(UsageRecord(spoolJSON: try JSONValue.parse(line)) == record, "\(line)")
    }

    static func directory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sg-spool-\(UUID().uuidString)").path
    }

    /// A SQLite state store with token `tok_a`, which the records name.
    static func store(_ directory: String) throws -> SQLiteStateStore {
        let store = try SQLiteStateStore(stateDirectory: directory)
        _ = try store.withConnection { db in
            try db.execute("INSERT INTO client_tokens (id, name, token_hash, created_at) VALUES ('tok_a', 'app', 'h', 0)")
        }
        return store
    }

    /// `store`, with its usage table away (every write fails, as on a full disk) until `restore`.
    static func failingStore(_ directory: String) throws -> SQLiteStateStore {
        let store = try Self.store(directory)
        _ = try store.withConnection { db in try db.execute("ALTER TABLE usage_records RENAME TO usage_records_away") }
        return store
    }

    static func restore(_ store: SQLiteStateStore) throws {
        _ = try store.withConnection { db in try db.execute("ALTER TABLE usage_records_away RENAME TO usage_records") }
    }

    static func spooledFiles(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/ledger-spool")) ?? []).sorted()
    }

    static func record(_ n: Int) -> UsageRecord {
        var r = UsageRecord(occurredAt: Date(timeIntervalSince1970: 1_780_000_000 + Double(n)), tokenId: "tok_a", requestId: "r\(n)", scenario: "chat",
                            model: "p/m", usage: Usage(inputTokens: n, outputTokens: 1), costMicrodollars: 10, outcome: "ok")
        r.admitted = true
        return r
    }

    /// Waits up to 20 s for `condition`.
    static func waitUntil(_ condition: () throws -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while try !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out", sourceLocation: sourceLocation)
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func aStopWithTheStoreFailingKeepsTheRecordsAndTheNextStartWritesThemOnce() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Self.failingStore(directory)
        let spool = LedgerSpool(directory: directory + "/ledger-spool")
        let said = Mutex<[String]>([])
        let ledger = UsageLedger(store: store, flushInterval: .milliseconds(10), spool: spool) { message, _ in said.locked { $0.append(message) } }
        ledger.record([Self.record(1), Self.record(2)])
        ledger.record([Self.record(3)])
        try await Self.waitUntil { ledger.stats.failedWrites >= 1 }
        try await offThePool { [ledger] in ledger.close() }

        let files = Self.spooledFiles(directory)
        #expect(files.count == 1 && files.first?.hasSuffix(".jsonl") == true, "\(files)")
        #expect(ledger.stats.dropped == 0)
        #expect(said.locked { $0.last?.contains("kept in \(directory)/ledger-spool/") } == true, "\(said.locked { $0 })")
        let dirMode = try FileManager.default.attributesOfItem(atPath: directory + "/ledger-spool")[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: directory + "/ledger-spool/" + files[0])[.posixPermissions] as? Int
        #expect(dirMode == 0o700 && fileMode == 0o600, "the records name tokens and requests")

        // The next start, with the store working again.
        try Self.restore(store)
        let next = UsageLedger(store: store, flushInterval: .milliseconds(10), spool: spool)
        try await Self.waitUntil { try store.usageSummary(tokenId: "tok_a", since: Date(timeIntervalSince1970: 0)).requests >= 3 }
        try await offThePool { [next] in next.close() }
        let again = UsageLedger(store: store, flushInterval: .milliseconds(10), spool: spool)
        try await offThePool { [again] in again.close() }
        let summary = try store.usageSummary(tokenId: "tok_a", since: Date(timeIntervalSince1970: 0))
        #expect(summary.requests == 3 && summary.inputTokens == 6 && summary.costMicrodollars == 30, "each record once: \(summary)")
        #expect(Self.spooledFiles(directory).isEmpty)
    }

    /// Without a spool (or when it cannot be written) what is left is dropped, and said.
    @Test func withoutASpoolTheStopDropsAndSaysSo() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Self.failingStore(directory)
        let said = Mutex<[(String, Int)]>([])
        let ledger = UsageLedger(store: store, flushInterval: .milliseconds(10)) { message, count in said.locked { $0.append((message, count)) } }
        ledger.record([Self.record(1), Self.record(2)])
        try await offThePool { [ledger] in ledger.close() }
        #expect(ledger.stats.dropped == 2)
        #expect(said.locked { $0.last.map { $0.0.hasPrefix("usage records dropped at the stop") && $0.1 == 2 } } == true)
    }

    /// A file another running process took is left to it; one taken by a process that is gone is taken again.
    @Test func aFileTakenByARunningProcessIsLeftAndOneOfAGoneProcessIsTaken() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let spool = LedgerSpool(directory: directory + "/ledger-spool")
        let first = try spool.save([Self.record(1)], unsettled: nil)
        let second = try spool.save([Self.record(2)], unsettled: ("771", 1))
        try FileManager.default.moveItem(atPath: first, toPath: first + ".writing-\(getppid())")
        try FileManager.default.moveItem(atPath: second, toPath: second + ".writing-\(Int32.max - 7)")
        let claimed = spool.claim()
        #expect(claimed.map(\.spooledName) == [FilePath.lastComponent(second)])
        let batch = try spool.load(try #require(claimed.first))
        #expect(batch.records == [Self.record(2)] && batch.unsettled?.transactionId == "771" && batch.unsettled?.count == 1)
        #expect(spool.claim().isEmpty, "taken once (this process holds it)")
        spool.giveBack(claimed[0])
        #expect(spool.claim().map(\.spooledName) == [FilePath.lastComponent(second)], "given back at a stop, taken at the next start")
    }

    /// A file that cannot be read is set aside (not taken again, not lost) and said; the rest are written.
    @Test func anUnreadableFileIsSetAsideAndTheOthersAreWritten() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Self.store(directory)
        let spool = LedgerSpool(directory: directory + "/ledger-spool")
        _ = try spool.save([Self.record(1)], unsettled: nil)
        let cut = try spool.save([Self.record(2), Self.record(3)], unsettled: nil)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cut))
        try bytes.prefix(bytes.count - 10).write(to: URL(fileURLWithPath: cut))
        let said = Mutex<[String]>([])
        let ledger = UsageLedger(store: store, flushInterval: .milliseconds(10), spool: spool) { message, _ in said.locked { $0.append(message) } }
        try await Self.waitUntil { Self.spooledFiles(directory).allSatisfy { $0.hasSuffix(".unreadable") } }
        try await offThePool { [ledger] in ledger.close() }
        #expect(Self.spooledFiles(directory) == [FilePath.lastComponent(cut) + ".unreadable"])
        #expect(try store.usageSummary(tokenId: "tok_a", since: Date(timeIntervalSince1970: 0)).requests == 1)
        #expect(said.locked { $0.contains { $0.contains("cannot be read") && $0.contains(".unreadable") } }, "\(said.locked { $0 })")
    }
}
