import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateState

/// Each stored response keeps the Response object its client was given, for `GET /v1/responses/{id}` (decision 0125):
/// read back without the conversation, by its token only and only until it expires; counted in the token's bytes for
/// `responses.max_mib_per_token`. SQLite always, PostgreSQL when a test server is set.
@Suite struct ResponseStoreObjectTests {
    static let t0: Int64 = 1_800_000_000_000
    static let conversation = Array(#"[{"role":"user","content":"Grüße 漢字"}]"#.utf8)

    static func record(_ id: String, token: String, object: String?) -> StoredResponse {
        let c = Date(millisecondsSince1970: t0)
        return StoredResponse(id: id, tokenId: token, createdAt: c, expiresAt: c.addingTimeInterval(3600),
                              conversation: conversation, object: object.map { Array($0.utf8) })
    }

    /// The same checks on any store; `total` reads a token's running byte total.
    static func check(_ store: any ResponseStore, total: (String) throws -> Int64) throws {
        let object = #"{"id":"resp_a","object":"response","output":[{"type":"message","content":[{"type":"output_text","text":"🎉 \"hi\""}]}]}"#
        let a = record("resp_a", token: "tok_1", object: object), b = record("resp_b", token: "tok_1", object: nil)
        try store.saveResponses([a, b], now: a.createdAt)
        let inside = Date(millisecondsSince1970: t0 + 1000)
        #expect(try store.storedResponseObject(id: "resp_a", tokenId: "tok_1", now: inside) == .found(Array(object.utf8)))
        #expect(try store.storedResponse(id: "resp_a", tokenId: "tok_1", now: inside) == a)
        #expect(try store.storedResponseObject(id: "resp_b", tokenId: "tok_1", now: inside) == .keptWithoutObject)
        #expect(try store.storedResponse(id: "resp_b", tokenId: "tok_1", now: inside)?.object == nil)
        #expect(try store.storedResponseObject(id: "resp_a", tokenId: "tok_2", now: inside) == .notFound)
        #expect(try store.storedResponseObject(id: "resp_c", tokenId: "tok_1", now: inside) == .notFound)
        #expect(try store.storedResponseObject(id: "resp_a", tokenId: "tok_1", now: a.expiresAt) == .notFound)
        #expect(try total("tok_1") == Int64(2 * conversation.count + object.utf8.count))

        // Replaced with a shorter object: the total follows.
        let shorter = record("resp_a", token: "tok_1", object: "{}")
        try store.saveResponses([shorter], now: inside)
        #expect(try store.storedResponseObject(id: "resp_a", tokenId: "tok_1", now: inside) == .found(Array("{}".utf8)))
        #expect(try total("tok_1") == Int64(2 * conversation.count + 2))
    }

    static func sqliteTotal(_ store: SQLiteStateStore, _ token: String) throws -> Int64 {
        try store.withConnection { db in
            try db.statement("SELECT bytes FROM stored_response_totals WHERE token_id = ?").firstRow([.text(token)]) { $0.int64(0) } ?? 0
        }
    }

    @Test func sqliteKeepsEachResponsesObject() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-resp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        try Self.check(store) { try Self.sqliteTotal(store, $0) }
    }

    /// A state file with stored responses from before schema step 14 keeps them: they continue, and read as kept
    /// without an object.
    @Test func stepFourteenKeepsTheResponsesStoredBefore() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-resp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        do {
            let db = try SQLiteConnection(path: dir + "/state.sqlite")
            try db.migrate(Array(StateSchema.steps.prefix(13)))
            try db.statement("INSERT INTO stored_responses (id, token_id, created_at, expires_at, conversation, bytes) VALUES (?, ?, ?, ?, ?, ?)")
                .run([.text("resp_1"), .text("tok_a"), .integer(Self.t0), .integer(Self.t0 + 3_600_000), .utf8(Self.conversation),
                      .integer(Int64(Self.conversation.count))])
        }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let inside = Date(millisecondsSince1970: Self.t0 + 1000)
        #expect(try store.schemaVersion() == StateSchema.steps.count)
        #expect(try store.storedResponseObject(id: "resp_1", tokenId: "tok_a", now: inside) == .keptWithoutObject)
        #expect(try store.storedResponse(id: "resp_1", tokenId: "tok_a", now: inside)?.conversation == Self.conversation)
    }

    /// A PostgreSQL database from before step 10, with a stored response: migrated, the response still continues and
    /// reads as kept without an object.
    @Test(.enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
    func postgresStepTenKeepsTheResponsesStoredBefore() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            do {
                let c = try db.connection(schemaThrough: 9)
                _ = try c.query("INSERT INTO stored_responses (id, token_id, created_at, expires_at, conversation, bytes) VALUES ($1, $2, $3, $4, $5, $6)",
                                ["resp_1", "tok_a", String(Self.t0), String(Self.t0 + 3_600_000),
                                 String(decoding: Self.conversation, as: UTF8.self), String(Self.conversation.count)])
            }
            let store = try PostgresStateStore(url: db.url)
            let inside = Date(millisecondsSince1970: Self.t0 + 1000)
            #expect(try store.storedResponseObject(id: "resp_1", tokenId: "tok_a", now: inside) == .keptWithoutObject)
            #expect(try store.storedResponse(id: "resp_1", tokenId: "tok_a", now: inside)?.conversation == Self.conversation)
            let version = try store.withConnection { try $0.query("SELECT version FROM skillgate_schema").int64(0, 0) }
            #expect(version == Int64(PostgresSchema.steps.count))
        }
    }

    @Test(.enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
    func postgresKeepsEachResponsesObject() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let store = try PostgresStateStore(url: db.url)
            try Self.check(store) { token in
                try store.withConnection { c in
                    let r = try c.query("SELECT bytes FROM stored_response_totals WHERE token_id = $1", [token])
                    return r.count > 0 ? r.int64(0, 0) : 0
                }
            }
        }
    }
}
