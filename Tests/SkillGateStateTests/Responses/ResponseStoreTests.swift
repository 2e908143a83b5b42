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
    }

    @Test func sqliteKeepsResponsesPerTokenUntilTheyExpire() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-resp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        try Self.check(store)
        #expect(try store.schemaVersion() == StateSchema.steps.count)
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
