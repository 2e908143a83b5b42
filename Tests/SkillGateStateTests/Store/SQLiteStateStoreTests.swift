import Foundation
import SkillGateCore
import SkillGateTestSupport
import Testing
@testable import SkillGateState

@Suite struct SQLiteStateStoreTests {
    private func token(_ name: String, id: String, at ms: Int64 = 1_700_000_000_000) -> ClientToken {
        ClientToken(id: id, name: name, scenarios: ["chat"], models: ["light", "gpt-4o"], defaultScenario: "chat",
                    createdAt: Date(millisecondsSince1970: ms))
    }

    @Test func createsAPrivateWALDatabaseWithTheCurrentSchema() throws {
        try withTemporaryDirectory { tmp in
            let dir = tmp + "/state"
            let store = try SQLiteStateStore(stateDirectory: dir)
            #expect(mode(of: dir) == 0o700)
            #expect(mode(of: store.path) == 0o600)
            #expect(try store.schemaVersion() == StateSchema.steps.count)
            #expect(try store.withConnection { try $0.pragma("journal_mode") } == "wal")
            #expect(try store.withConnection { try $0.pragma("foreign_keys") } == "1")
            try store.recordUsage(UsageRecord(occurredAt: Date()))
            #expect(mode(of: store.path + "-wal") == 0o600, "the WAL file copies the database's mode")
        }
    }

    @Test func tightensAnExistingReadableDatabaseFile() throws {
        try withTemporaryDirectory { dir in
            try writeFile(dir + "/state.sqlite", "", mode: 0o644)
            _ = try SQLiteStateStore(stateDirectory: dir)
            #expect(mode(of: dir + "/state.sqlite") == 0o600)
        }
    }

    @Test func tokensAndUsageSurviveReopenAndMigrationIsIdempotent() throws {
        try withTemporaryDirectory { dir in
            let original = token("ios-app", id: "tok_0000000000000001")
            do {
                let store = try SQLiteStateStore(stateDirectory: dir)
                try store.insertToken(original, hash: String(repeating: "a", count: 64))
                try store.recordUsage(UsageRecord(occurredAt: Date(millisecondsSince1970: 1_700_000_001_000),
                                                  tokenId: original.id, usage: Usage(inputTokens: 10, outputTokens: 5),
                                                  costMicrodollars: 1234))
            }
            let reopened = try SQLiteStateStore(stateDirectory: dir)
            #expect(try reopened.schemaVersion() == StateSchema.steps.count)
            #expect(try reopened.tokens() == [original])
            #expect(try reopened.token(hash: String(repeating: "a", count: 64)) == StoredClientToken(token: original, hash: String(repeating: "a", count: 64)))
            #expect(try reopened.token(hash: String(repeating: "b", count: 64)) == nil)
            #expect(try reopened.tokens(hashes: [String(repeating: "b", count: 64), String(repeating: "a", count: 64)])
                    == [StoredClientToken(token: original, hash: String(repeating: "a", count: 64))], "many at once: the known ones")
            let summary = try reopened.usageSummary(tokenId: original.id, since: Date(millisecondsSince1970: 0))
            #expect(summary == UsageSummary(requests: 1, inputTokens: 10, outputTokens: 5, costMicrodollars: 1234))
        }
    }

    @Test func activeNamesAreUniqueAndFreedByRevocation() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            try store.insertToken(token("ci", id: "tok_1"), hash: "h1")
            #expect(throws: TokenError.duplicateName("ci")) { try store.insertToken(token("ci", id: "tok_2"), hash: "h2") }
            let revoked = try store.revokeToken(named: "ci", at: Date(millisecondsSince1970: 1_800_000_000_000))
            #expect(revoked?.id == "tok_1")
            #expect(revoked?.revokedAt == Date(millisecondsSince1970: 1_800_000_000_000))
            #expect(try store.revokeToken(named: "ci", at: Date()) == nil)
            try store.insertToken(token("ci", id: "tok_2", at: 1_700_000_000_001), hash: "h2")
            #expect(try store.tokens().map(\.id) == ["tok_1", "tok_2"])
            #expect(try store.tokens().map(\.isRevoked) == [true, false])
            #expect(try store.activeTokenHashes(limit: 10) == ["h2"], "a revoked token's hash is not listed")
        }
    }

    @Test func activeTokenHashesStopAtTheLimit() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            for i in 1...5 { try store.insertToken(token("t\(i)", id: "tok_\(i)"), hash: "h\(i)") }
            #expect(Set(try store.activeTokenHashes(limit: 10)) == ["h1", "h2", "h3", "h4", "h5"])
            try store.markTokensUsed(["tok_4": Date(millisecondsSince1970: 2_000), "tok_2": Date(millisecondsSince1970: 3_000)])
            #expect(try store.activeTokenHashes(limit: 2) == ["h2", "h4"], "the most recently used first")
            #expect(try store.activeTokenHashes(limit: 3).count == 3)
        }
    }

    @Test func tokensCreatedSinceAreListedOldestFirst() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            for i in 1...5 { try store.insertToken(token("t\(i)", id: "tok_\(i)", at: 1_700_000_000_000 + Int64(6 - i) * 1_000), hash: "h\(i)") }
            _ = try store.revokeToken(named: "t2", at: Date(millisecondsSince1970: 1_700_000_010_000))
            let since = try store.activeTokenHashes(createdSince: Date(millisecondsSince1970: 1_700_000_002_000), limit: 10)
            #expect(since.map(\.hash) == ["h4", "h3", "h1"], "created at or after the time, not revoked, the oldest first")
            #expect(since.first?.createdAt == Date(millisecondsSince1970: 1_700_000_002_000))
            #expect(try store.activeTokenHashes(createdSince: Date(millisecondsSince1970: 0), limit: 2).map(\.hash) == ["h5", "h4"])
            #expect(try store.activeTokenHashes(createdSince: Date(millisecondsSince1970: 1_700_000_005_001), limit: 10).isEmpty)
        }
    }

    @Test func lastUsedOnlyMovesForward() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            try store.insertToken(token("a", id: "tok_a"), hash: "ha")
            try store.markTokensUsed(["tok_a": Date(millisecondsSince1970: 2_000)])
            try store.markTokensUsed(["tok_a": Date(millisecondsSince1970: 1_000)])
            #expect(try store.tokens().first?.lastUsedAt == Date(millisecondsSince1970: 2_000))
        }
    }

    @Test func usageSummariesFilterByTokenAndTime() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            try store.insertToken(token("a", id: "tok_a"), hash: "ha")
            try store.insertToken(token("b", id: "tok_b"), hash: "hb")
            for (id, ms, cost) in [("tok_a", 1_000, 10), ("tok_a", 5_000, 20), ("tok_b", 5_000, 40)] as [(String, Int64, Int64)] {
                try store.recordUsage(UsageRecord(occurredAt: Date(millisecondsSince1970: ms), tokenId: id,
                                                  usage: Usage(inputTokens: 1, outputTokens: 2), costMicrodollars: cost))
            }
            try store.recordUsage(UsageRecord(occurredAt: Date(millisecondsSince1970: 6_000), outcome: "upstream_timeout"))
            let since = Date(millisecondsSince1970: 2_000)
            #expect(try store.usageSummary(tokenId: "tok_a", since: since) == UsageSummary(requests: 1, inputTokens: 1, outputTokens: 2, costMicrodollars: 20))
            #expect(try store.usageSummary(tokenId: nil, since: since) == UsageSummary(requests: 3, inputTokens: 2, outputTokens: 4, costMicrodollars: 60))
            #expect(try store.usageSummary(tokenId: "tok_none", since: since) == UsageSummary())
        }
    }

    @Test func twoStoresOnOneFileWriteConcurrentlyWithoutLosingRecords() async throws {
        try await withTemporaryDirectory { dir in
            // Two connections, like the server and the CLI: busy_timeout makes writers wait, not fail.
            let stores = [try SQLiteStateStore(stateDirectory: dir), try SQLiteStateStore(stateDirectory: dir)]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for t in 0..<6 {
                    group.addTask {
                        for i in 0..<25 {
                            try stores[t % 2].recordUsage(UsageRecord(occurredAt: Date(millisecondsSince1970: Int64(i)),
                                                                      usage: Usage(inputTokens: 1)))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let summary = try stores[0].usageSummary(tokenId: nil, since: Date(millisecondsSince1970: 0))
            #expect(summary.requests == 150 && summary.inputTokens == 150)
        }
    }

    @Test func usageForAnUnknownTokenIsRefusedByTheForeignKey() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            let error = #expect(throws: SQLiteError.self) {
                try store.recordUsage(UsageRecord(occurredAt: Date(), tokenId: "tok_missing"))
            }
            #expect(error?.isConstraintViolation == true)
        }
    }
}
