import Foundation
import Testing
import SkillGateCore
import SkillGateKeys
import SkillGateTestSupport
@testable import SkillGateState

/// The PostgreSQL store answers like the SQLite one: tokens with limits, revocation, the ledger and its reports;
/// migrations run once however many instances open it.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct PostgresStateStoreTests {
    // Every test runs its blocking libpq calls on a thread of its own (`offThePool`), so parallel tests keep the pool.
    @Test func tokensLimitsAndRevocationRoundTrip() async throws {
        try await offThePool { try Self.tokensRoundTrip() }
    }

    static func tokensRoundTrip() throws {
        let db = try PostgresTestDatabase()
        defer { db.drop() }
        let service = TokenService(store: try PostgresStateStore(url: db.url))
        let created = try service.create(name: "ios-app", scenarios: ["chat"], limits: TokenLimits(requestsPerMinute: 60))
        #expect(service.authenticate(created.token)?.name == "ios-app")
        #expect(throws: TokenError.duplicateName("ios-app")) { try service.create(name: "ios-app") }
        try service.updateLimits(name: "ios-app", TokenLimits(requestsPerMinute: 60, budgetUSDPerDay: 5))
        #expect(try service.list().first?.limits == TokenLimits(requestsPerMinute: 60, budgetUSDPerDay: 5))
        #expect(try service.list().first?.scenarios == ["chat"])
        let other = try service.create(name: "ci")
        #expect(Set(try service.store.activeTokenHashes(limit: 10)) == [TokenFormat.hash(created.token), TokenFormat.hash(other.token)])
        // Later than any use the service noted (its own background flush marks "ios-app" used about now).
        try service.store.markTokensUsed([other.record.id: Date().addingTimeInterval(86_400)])
        #expect(try service.store.activeTokenHashes(limit: 1) == [TokenFormat.hash(other.token)], "the most recently used first")
        try service.revoke(name: "ios-app")
        #expect(service.authenticate(created.token) == nil)
        #expect(throws: TokenError.alreadyRevoked("ios-app")) { try service.revoke(name: "ios-app") }
        #expect(try service.store.activeTokenHashes(limit: 10) == [TokenFormat.hash(other.token)])
        #expect(try service.store.activeTokenHashes(limit: 0).isEmpty)
        // Created since: the revoked one is left out, the oldest come first, the time is the record's.
        let listed = try service.store.activeTokenHashes(createdSince: created.record.createdAt, limit: 10)
        #expect(listed == [CreatedTokenHash(hash: TokenFormat.hash(other.token), createdAt: other.record.createdAt)])
        #expect(try service.store.activeTokenHashes(createdSince: other.record.createdAt.addingTimeInterval(0.001), limit: 10).isEmpty)
        let third = try service.create(name: "web")
        #expect(try service.store.activeTokenHashes(createdSince: created.record.createdAt, limit: 1).map(\.hash) == [TokenFormat.hash(other.token)])
        #expect(try service.store.activeTokenHashes(createdSince: created.record.createdAt, limit: 10).map(\.hash)
                == [TokenFormat.hash(other.token), TokenFormat.hash(third.token)])
    }

    /// Many tokens in one read (the revocation sweep's, decision 0142): revoked ones included, unknown and malformed
    /// hashes left out, the same records as one lookup each, however the hashes are split into queries.
    @Test(arguments: [1_000, 2]) func manyTokensAreLookedUpAtOnce(perQuery: Int) async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let store = try PostgresStateStore(url: db.url)
            let service = TokenService(store: store)
            let made = try (0..<5).map { try service.create(name: "app-\($0)").token }
            try service.revoke(name: "app-3")
            let hashes = made.map { TokenFormat.hash($0) }
            let asked = hashes + [String(repeating: "0", count: 64), "not-a-hash", "'}\",{", hashes[0]]
            let found = try store.tokens(hashes: asked, perQuery: perQuery)
            let one = try hashes.map { try #require(try store.token(hash: $0)) }
            #expect(Set(found.map(\.hash)) == Set(hashes))
            #expect(Dictionary(found.map { ($0.hash, $0) }, uniquingKeysWith: { a, _ in a }) == Dictionary(uniqueKeysWithValues: one.map { ($0.hash, $0) }))
            #expect(found.first { $0.hash == hashes[3] }?.token.isRevoked == true)
            #expect(try store.tokens(hashes: []).isEmpty && store.tokens(hashes: ["x"]).isEmpty)
        }
    }

    @Test func adminFlagsRoundTrip() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let service = TokenService(store: try PostgresStateStore(url: db.url))
            let admin = try service.create(name: "console", admin: true, chat: false)
            let ordinary = try service.create(name: "app")
            #expect(service.authenticate(admin.token).map { [$0.admin, $0.chat] } == [true, false])
            #expect(service.authenticate(ordinary.token).map { [$0.admin, $0.chat] } == [false, true])
        }
    }

    @Test func theLedgerSumsAndReportsLikeSQLite() async throws {
        try await offThePool { try Self.ledgerLikeSQLite() }
    }

    /// A call of the gateway's own (decision 0049): no token, no scenario, its own name in the report by token.
    static var gatewaysOwnCall: UsageRecord {
        var row = UsageLedgerStoreTests.row(.examples, model: "p/light", input: 4, cost: 40)
        row.tokenName = nil
        row.scenario = nil
        return row
    }

    static func ledgerLikeSQLite() throws {
        let db = try PostgresTestDatabase()
        defer { db.drop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-pg-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let stores: [any StateStore] = [try PostgresStateStore(url: db.url), try SQLiteStateStore(stateDirectory: dir)]
        var reports: [[UsageReportRow]] = []
        var perDay: [[UsageDayRow]] = []
        for store in stores {
            try store.recordUsage([
                UsageLedgerStoreTests.row(.run, model: "p/strong", input: 30, cost: 300),
                UsageLedgerStoreTests.row(.call, model: "p/light", input: 10, cost: 100),
                UsageLedgerStoreTests.row(.call, model: "p/strong", input: 20, cost: 200),
                UsageLedgerStoreTests.row(.request, model: "p/light", input: 5, cost: 50, outcome: "upstream_timeout", day: 1),
                Self.gatewaysOwnCall,
            ])
            #expect(try store.usageSummary(tokenId: nil, since: Date(millisecondsSince1970: 0)).costMicrodollars == 390)
            #expect(try store.usageSummary(scenario: "chat", since: Date(millisecondsSince1970: 0)).requests == 2)
            for by in UsageGrouping.allCases { reports.append(try store.usageReport(since: Date(millisecondsSince1970: 0), by: by)) }
            for by in UsageGrouping.allCases { perDay.append(try store.usageReportPerDay(since: Date(millisecondsSince1970: 0), by: by)) }
        }
        #expect(reports[0].contains { $0.key == "(skill examples)" && $0.costMicrodollars == 40 }, "\(reports[0])")
        #expect(Array(reports[0..<4]) == Array(reports[4..<8]), "PostgreSQL and SQLite give the same reports")
        #expect(Array(perDay[0..<4]) == Array(perDay[4..<8]), "and the same reports per day")
    }

    /// The usage reports and sums over the ledger's rows run on a connection of their own (decision 0089): they do not
    /// wait for a ledger batch or a token lookup on the main one.
    @Test func reportsDoNotWaitForTheMainConnection() async throws {
        try await offThePool { try Self.reportsOnTheirOwnConnection() }
    }

    static func reportsOnTheirOwnConnection() throws {
        let db = try PostgresTestDatabase()
        defer { db.drop() }
        let store = try PostgresStateStore(url: db.url)
        try store.recordUsage([UsageLedgerStoreTests.row(.request, model: "p/light", input: 5, cost: 50)])
        let holdingMain: @Sendable (@Sendable () -> Void) -> Void = { inside in _ = try? store.withConnection { _ in inside() } }
        let report = ReportConnectionTests.finishes(whileHolding: holdingMain) {
            try store.usageReport(since: Date(millisecondsSince1970: 0), by: .model)
        }
        #expect(report.finished, "the report waited for the main connection")
        #expect(report.value?.map(\.key) == ["p/light"])
        let sum = ReportConnectionTests.finishes(whileHolding: holdingMain) { try store.usageSummary(tokenId: nil, since: Date(millisecondsSince1970: 0)) }
        #expect(sum.finished && sum.value?.costMicrodollars == 50)
        let holdingReports: @Sendable (@Sendable () -> Void) -> Void = { inside in _ = try? store.withReportConnection { _ in inside() } }
        let lookup = ReportConnectionTests.finishes(whileHolding: holdingReports) {
            try store.recordUsage([UsageLedgerStoreTests.row(.request, model: "p/strong", input: 1, cost: 10)])
            return try store.token(hash: "none") == nil
        }
        #expect(lookup.finished && lookup.value == true, "a batch or a lookup waited for a report")
        #expect(try store.usageReport(since: Date(millisecondsSince1970: 0), by: .model).map(\.key) == ["p/light", "p/strong"],
                "the report connection sees what the main one committed")
    }

    /// When the report connection cannot be made (here the database takes no new connections), reports run on the main
    /// connection rather than failing.
    @Test func reportsFallBackToTheMainConnection() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let store = try PostgresStateStore(url: db.url)
            try store.recordUsage([UsageLedgerStoreTests.row(.request, model: "p/light", input: 5, cost: 50)])
            try PostgresConnection(url: PostgresTestDatabase.adminURL!).execute("ALTER DATABASE \(db.name) WITH ALLOW_CONNECTIONS false")
            #expect(throws: PostgresError.self) { try PostgresConnection(url: db.url) }
            #expect(try store.usageReport(since: Date(millisecondsSince1970: 0), by: .model).map(\.key) == ["p/light"])
            #expect(try store.usageSummary(tokenId: nil, since: Date(millisecondsSince1970: 0)).costMicrodollars == 50)
        }
    }

    /// The ledger's batches go in with COPY: text that COPY's format would misread (tabs, newlines, backslashes,
    /// `\N`, non-ASCII) and NULLs come back as they went in.
    @Test func ledgerRowsKeepAwkwardTextAndNulls() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let store = try PostgresStateStore(url: db.url)
            let awkward = ["tab\there", "line\nbreak\r", "back\\slash", "\\N", "ünï 漢字 ✓", ""]
            var rows: [UsageRecord] = []
            for (i, scenario) in awkward.enumerated() {
                var r = UsageLedgerStoreTests.row(.request, model: "p/m", input: i + 1, cost: Int64(i + 1))
                r.scenario = scenario
                r.tokenName = nil
                r.requestId = nil
                rows.append(r)
            }
            try store.recordUsage(rows)
            let report = try store.usageReport(since: Date(millisecondsSince1970: 0), by: .scenario)
            for (i, scenario) in awkward.enumerated() {
                let row = report.first { $0.key == (scenario.isEmpty ? "" : scenario) }
                #expect(row?.inputTokens == i + 1, "\(scenario.debugDescription): \(report.map(\.key))")
            }
            let nulls = try PostgresConnection(url: db.url).query("SELECT count(*) FROM usage_records WHERE token_name IS NULL AND request_id IS NULL")
            #expect(nulls.int64(0, 0) == Int64(awkward.count))
        }
    }

    @Test func twoInstancesOpeningTogetherMigrateOnce() async throws {
        let db = try await offThePool { try PostgresTestDatabase() }
        let url = db.url
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { try await offThePool { _ = try PostgresStateStore(url: url) } } }
            try await group.waitForAll()
        }
        let (count, version) = try await offThePool { () throws -> (Int64, Int64) in
            let rows = try PostgresConnection(url: url).query("SELECT count(*), max(version) FROM skillgate_schema")
            return (rows.int64(0, 0), rows.int64(0, 1))
        }
        try await offThePool { db.drop() }
        #expect(count == 1 && version == Int64(PostgresSchema.steps.count))
    }
}

/// Needs libpq only, no server.
@Suite struct PostgresConnectionErrorTests {
    @Test func anUnreachableServerIsAClearError() async throws {
        try await offThePool { Self.unreachable() }
    }

    static func unreachable() {
        do {
            _ = try PostgresStateStore(url: "postgresql://skillgate:hunter2secret@127.0.0.1:1/skillgate")
            Issue.record("connected to port 1")
        } catch {
            let text = "\(error)"
            #expect(text.contains("127.0.0.1:1/skillgate") && text.contains("check state.postgres_url"), "\(text)")
            #expect(!text.contains("hunter2secret"), "the password never appears in a message")
        }
    }
}
