import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateState

/// Stored responses (`previous_response_id`): read back only by their token and only until they
/// expire; expired rows are removed at the next save. SQLite always, PostgreSQL when a test server is set.
@Suite struct ResponseStoreTests {
    static func record(_ id: String, token: String, created: Int64, hours: Double = 1) -> StoredResponse {
        let c = Date(millisecondsSince1970: created)
        return StoredResponse(id: id, tokenId: token, createdAt: c, expiresAt: c.addingTimeInterval(hours * 3600),
                              conversation: Array(#"[{"type":"message","content":"Grüße \"x\" 漢字 🎉"}]"#.utf8))
    }

    /// The same checks on any store.
    static func check(_ store: any ResponseStore) throws {
        let t0: Int64 = 1_800_000_000_000
        let a = record("resp_a", token: "tok_1", created: t0)
        try store.saveResponses([a], now: a.createdAt)
        let inside = Date(millisecondsSince1970: t0 + 3_599_000)
        #expect(try store.storedResponse(id: "resp_a", tokenId: "tok_1", now: inside) == a)
        #expect(try store.storedResponse(id: "resp_a", tokenId: "tok_2", now: inside) == nil)
        #expect(try store.storedResponse(id: "resp_b", tokenId: "tok_1", now: inside) == nil)
        #expect(try store.storedResponse(id: "resp_a", tokenId: "tok_1", now: a.expiresAt) == nil)

        // A later save purges what expired before it; the expired row is gone even for a reader with an old clock.
        let b = record("resp_b", token: "tok_1", created: t0 + 7_200_000), c = record("resp_c", token: "tok_2", created: t0 + 7_200_000)
        try store.saveResponses([b, c], now: b.createdAt)
        #expect(try store.storedResponse(id: "resp_a", tokenId: "tok_1", now: inside) == nil)
        #expect(try store.storedResponse(id: "resp_b", tokenId: "tok_1", now: b.createdAt) == b)
        #expect(try store.storedResponse(id: "resp_c", tokenId: "tok_2", now: b.createdAt) == c)

        // A deletion removes only its token's own row, and says whether there was one.
        #expect(try store.deleteResponse(id: "resp_b", tokenId: "tok_2") == false)
        #expect(try store.storedResponse(id: "resp_b", tokenId: "tok_1", now: b.createdAt) == b)
        #expect(try store.deleteResponse(id: "resp_b", tokenId: "tok_1"))
        #expect(try store.storedResponse(id: "resp_b", tokenId: "tok_1", now: b.createdAt) == nil)
        #expect(try store.deleteResponse(id: "resp_b", tokenId: "tok_1") == false)
        #expect(try store.storedResponse(id: "resp_c", tokenId: "tok_2", now: b.createdAt) == c)
    }

    @Test func sqliteKeepsResponsesPerTokenUntilTheyExpire() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-resp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        try Self.check(store)
        #expect(try store.schemaVersion() == StateSchema.steps.count)
    }

    /// SQLite removes expired rows as the oldest rowids, up to the first row still valid (no index on `expires_at`,
    /// schema step 7): a newer row kept for a shorter time (the retention was shortened) stays until the older rows
    /// before it expire, but is never read after its expiry; a replaced row moves to the end; an empty batch writes
    /// and removes nothing.
    @Test func sqliteRemovesExpiredRowsOldestFirst() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-resp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let t0: Int64 = 1_800_000_000_000
        let long = Self.record("resp_1", token: "t", created: t0, hours: 10)
        let short = Self.record("resp_2", token: "t", created: t0 + 1000, hours: 1)
        let later = (0..<3).map { Self.record("resp_\(3 + $0)", token: "t", created: t0 + 2000 + Int64($0), hours: 10) }
        try store.saveResponses([long, short] + later, now: long.createdAt)
        func ids() throws -> [String] {
            try store.withConnection { db in try db.prepare("SELECT id FROM stored_responses ORDER BY rowid").rows { $0.text(0) } }
        }
        let afterShort = Date(millisecondsSince1970: t0 + 2 * 3_600_000)
        try store.saveResponses([], now: afterShort)  // an empty batch writes nothing, removes nothing
        try store.saveResponses([Self.record("resp_6", token: "t", created: t0 + 2 * 3_600_000, hours: 10)], now: afterShort)
        #expect(try ids() == ["resp_1", "resp_2", "resp_3", "resp_4", "resp_5", "resp_6"])
        #expect(try store.storedResponse(id: "resp_2", tokenId: "t", now: afterShort) == nil)
        #expect(try store.storedResponse(id: "resp_1", tokenId: "t", now: afterShort) == long)

        // resp_1 expired: it and the expired row after it go, up to the first row still valid.
        let afterLong = Date(millisecondsSince1970: t0 + 10 * 3_600_000 + 1)
        var replaced = later[0]
        replaced.conversation = Array("[]".utf8)
        try store.saveResponses([replaced], now: afterLong)
        #expect(try ids() == ["resp_4", "resp_5", "resp_6", "resp_3"])
        #expect(try store.storedResponse(id: "resp_3", tokenId: "t", now: afterLong) == replaced)

        // Everything expired: the table empties.
        try store.saveResponses([Self.record("resp_7", token: "t", created: t0 + 30 * 3_600_000)], now: Date(millisecondsSince1970: t0 + 30 * 3_600_000))
        #expect(try ids() == ["resp_7"])
    }

    /// A state file with stored responses from before schema step 7 keeps them; the expiry index is gone.
    @Test func stepSevenKeepsStoredResponsesAndDropsTheExpiryIndex() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-resp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let a = Self.record("resp_a", token: "tok_1", created: 1_800_000_000_000)
        do {
            let db = try SQLiteConnection(path: dir + "/state.sqlite")
            try db.migrate(Array(StateSchema.steps.prefix(6)))
            try db.statement("INSERT INTO stored_responses VALUES (?, ?, ?, ?, ?)")
                .run([.text(a.id), .text(a.tokenId), .integer(a.createdAt.millisecondsSince1970), .integer(a.expiresAt.millisecondsSince1970),
                      .text(String(decoding: a.conversation, as: UTF8.self))])
        }
        let store = try SQLiteStateStore(stateDirectory: dir)
        #expect(try store.schemaVersion() == StateSchema.steps.count)
        #expect(try store.storedResponse(id: "resp_a", tokenId: "tok_1", now: a.createdAt) == a)
        let indexes = try store.withConnection { db in
            try db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'stored_responses'").rows { $0.text(0) }
        }
        #expect(!indexes.contains("stored_responses_expiry"))
    }

    @Test(.enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
    func postgresKeepsResponsesPerTokenUntilTheyExpire() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            try Self.check(try PostgresStateStore(url: db.url))
        }
    }
}
