import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateState

/// Each stored response keeps where the model's input ends in its conversation, for
/// `GET /v1/responses/{id}/input_items` (decision 0127): read back with the conversation, replaced with it, and absent
/// for the responses stored before the schema step that added it. SQLite always, PostgreSQL when a test server is set.
@Suite struct ResponseStoreInputEndTests {
    static let t0: Int64 = 1_800_000_000_000
    /// An input of two items (the user's, then a function call's output), then the answer's item.
    static let input = #"[{"type":"message","role":"user","content":[{"type":"input_text","text":"Grüße 漢字"}]},{"type":"function_call_output","call_id":"c1","output":[]}"#
    static let conversation = Array((input + #",{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}]"#).utf8)

    static func record(_ id: String, inputEnd: Int?) -> StoredResponse {
        let c = Date(millisecondsSince1970: t0)
        return StoredResponse(id: id, tokenId: "tok_1", createdAt: c, expiresAt: c.addingTimeInterval(3600), conversation: conversation,
                              object: Array("{}".utf8), inputEnd: inputEnd)
    }

    /// The same checks on any store.
    static func check(_ store: any ResponseStore) throws {
        let a = record("resp_a", inputEnd: input.utf8.count), b = record("resp_b", inputEnd: nil)
        try store.saveResponses([a, b], now: a.createdAt)
        let inside = Date(millisecondsSince1970: t0 + 1000)
        let readA = try #require(try store.storedResponse(id: "resp_a", tokenId: "tok_1", now: inside))
        #expect(readA == a)
        #expect(readA.inputItemsJSON.map { String(decoding: $0, as: UTF8.self) } == input + "]")
        #expect(try store.storedResponse(id: "resp_b", tokenId: "tok_1", now: inside)?.inputEnd == nil)

        // Saved again with another boundary (the writer replaces a response whole): the new one is read.
        try store.saveResponses([record("resp_a", inputEnd: 1)], now: inside)
        #expect(try store.storedResponse(id: "resp_a", tokenId: "tok_1", now: inside)?.inputItemsJSON == Array("[]".utf8))
    }

    /// The input's array is the conversation's first `inputEnd` bytes closed with `]`; no array when the boundary is
    /// missing or outside the conversation.
    @Test func theInputItemsAreTheConversationUpToTheBoundary() throws {
        #expect(Self.record("r", inputEnd: Self.input.utf8.count).inputItemsJSON == Array((Self.input + "]").utf8))
        #expect(Self.record("r", inputEnd: 1).inputItemsJSON == Array("[]".utf8))
        for bad in [nil, 0, -1, Self.conversation.count + 1] {
            #expect(Self.record("r", inputEnd: bad).inputItemsJSON == nil, "\(String(describing: bad))")
        }
        let json = try #require(Self.record("r", inputEnd: Self.input.utf8.count).inputItemsJSON)
        #expect(try JSONValue.parse(json).arrayValue?.count == 2)
    }

    @Test func sqliteKeepsWhereEachInputEnds() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-resp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.check(try SQLiteStateStore(stateDirectory: dir))
    }

    /// A state file with a stored response from before schema step 15 keeps it: it reads with no boundary, its
    /// conversation and object as they were.
    @Test func stepFifteenKeepsTheResponsesStoredBefore() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-resp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        do {
            let db = try SQLiteConnection(path: dir + "/state.sqlite")
            try db.migrate(Array(StateSchema.steps.prefix(14)))
            try db.statement("INSERT INTO stored_responses (id, token_id, created_at, expires_at, conversation, bytes, response_object) VALUES (?, ?, ?, ?, ?, ?, ?)")
                .run([.text("resp_1"), .text("tok_a"), .integer(Self.t0), .integer(Self.t0 + 3_600_000), .utf8(Self.conversation),
                      .integer(Int64(Self.conversation.count + 2)), .utf8(Array("{}".utf8))])
        }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let inside = Date(millisecondsSince1970: Self.t0 + 1000)
        #expect(try store.schemaVersion() == StateSchema.steps.count)
        let old = try #require(try store.storedResponse(id: "resp_1", tokenId: "tok_a", now: inside))
        #expect(old.inputEnd == nil && old.conversation == Self.conversation && old.object == Array("{}".utf8))
    }

    @Test(.enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
    func postgresKeepsWhereEachInputEnds() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            try Self.check(try PostgresStateStore(url: db.url))
        }
    }

    /// A PostgreSQL database from before step 11, with a stored response: migrated, the response reads with no boundary.
    @Test(.enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
    func postgresStepElevenKeepsTheResponsesStoredBefore() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            do {
                let c = try db.connection(schemaThrough: 10)
                _ = try c.query("INSERT INTO stored_responses (id, token_id, created_at, expires_at, conversation, bytes, response_object) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                                ["resp_1", "tok_a", String(Self.t0), String(Self.t0 + 3_600_000),
                                 String(decoding: Self.conversation, as: UTF8.self), String(Self.conversation.count + 2), "{}"])
            }
            let store = try PostgresStateStore(url: db.url)
            let inside = Date(millisecondsSince1970: Self.t0 + 1000)
            let old = try #require(try store.storedResponse(id: "resp_1", tokenId: "tok_a", now: inside))
            #expect(old.inputEnd == nil && old.conversation == Self.conversation && old.object == Array("{}".utf8))
            let version = try store.withConnection { try $0.query("SELECT version FROM skillgate_schema").int64(0, 0) }
            #expect(version == Int64(PostgresSchema.steps.count))
        }
    }
}
