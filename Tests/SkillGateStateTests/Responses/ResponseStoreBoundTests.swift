import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateState

/// Each token's stored responses within `responses.max_mib_per_token` (decision 0119): a save that takes a token over
/// the bound drops that token's oldest responses until it is within it again, and says how many; other tokens keep
/// theirs; the running totals follow every insert, replacement, deletion and expiry. SQLite always, PostgreSQL when a
/// test server is set.
@Suite struct ResponseStoreBoundTests {
    static let t0: Int64 = 1_800_000_000_000

    /// A response of exactly `bytes` bytes of conversation, created `order` ms after `t0`.
    static func record(_ id: String, token: String, order: Int64, bytes: Int, hours: Double = 10) -> StoredResponse {
        let c = Date(millisecondsSince1970: t0 + order)
        return StoredResponse(id: id, tokenId: token, createdAt: c, expiresAt: c.addingTimeInterval(hours * 3600),
                              conversation: [UInt8](repeating: UInt8(ascii: "x"), count: bytes))
    }

    /// The same checks on any store; `ids(token)` lists a token's stored ids, oldest first, and `total(token)` reads its
    /// running total.
    static func check(_ store: any ResponseStore, ids: (String) throws -> [String], total: (String) throws -> Int64) throws {
        let at = Date(millisecondsSince1970: t0)
        // Within the bound: nothing dropped.
        let first = (0..<3).map { record("resp_a\($0)", token: "tok_a", order: Int64($0), bytes: 100) }
        #expect(try store.saveResponses(first + [record("resp_b0", token: "tok_b", order: 3, bytes: 400)], now: at, maxBytesPerToken: 300) == ["tok_b": 1])
        #expect(try ids("tok_a") == ["resp_a0", "resp_a1", "resp_a2"])
        #expect(try total("tok_a") == 300)
        // tok_b's one response was over the bound by itself: dropped (the archive never saves one over 8 MiB, and the
        // bound is at least that).
        #expect(try ids("tok_b") == [])
        #expect(try total("tok_b") == 0)

        // Two more of 100 bytes: 500 against 300, so the two oldest go (the excess exactly covered).
        let more = (3..<5).map { record("resp_a\($0)", token: "tok_a", order: Int64(10 + $0), bytes: 100) }
        #expect(try store.saveResponses(more, now: at, maxBytesPerToken: 300) == ["tok_a": 2])
        #expect(try ids("tok_a") == ["resp_a2", "resp_a3", "resp_a4"])
        #expect(try total("tok_a") == 300)

        // One of 150: the excess (150) needs two of the oldest (200), leaving 250.
        #expect(try store.saveResponses([record("resp_a5", token: "tok_a", order: 20, bytes: 150)], now: at, maxBytesPerToken: 300) == ["tok_a": 2])
        #expect(try ids("tok_a") == ["resp_a4", "resp_a5"])
        #expect(try total("tok_a") == 250)

        // Replacing a response counts its new size only; a deletion takes its size off.
        #expect(try store.saveResponses([record("resp_a4", token: "tok_a", order: 21, bytes: 50)], now: at, maxBytesPerToken: 300) == [:])
        #expect(try total("tok_a") == 200)
        #expect(try store.deleteResponse(id: "resp_a5", tokenId: "tok_a"))
        #expect(try total("tok_a") == 50)

        // Another token's save never drops tok_a's, even when tok_a would be over a smaller bound.
        #expect(try store.saveResponses([record("resp_c0", token: "tok_c", order: 30, bytes: 10)], now: at, maxBytesPerToken: 20) == [:])
        #expect(try ids("tok_a") == ["resp_a4"])

        // Expiry takes the expired rows' sizes off too.
        let later = Date(millisecondsSince1970: t0 + 11 * 3_600_000)
        #expect(try store.saveResponses([record("resp_c1", token: "tok_c", order: 11 * 3_600_000, bytes: 10)], now: later, maxBytesPerToken: 300) == [:])
        #expect(try ids("tok_a") == [])
        #expect(try total("tok_a") == 0)
        #expect(try total("tok_c") == 10)
    }

    static func sqliteIds(_ store: SQLiteStateStore, _ token: String) throws -> [String] {
        try store.withConnection { db in
            try db.prepare("SELECT id FROM stored_responses WHERE token_id = ? ORDER BY rowid").rows([.text(token)]) { $0.text(0) }
        }
    }

    static func sqliteTotal(_ store: SQLiteStateStore, _ token: String) throws -> Int64 {
        try store.withConnection { db in
            try db.prepare("SELECT bytes FROM stored_response_totals WHERE token_id = ?").firstRow([.text(token)]) { $0.int64(0) } ?? 0
        }
    }

    @Test func sqliteKeepsEachTokenWithinItsBound() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-resp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        try Self.check(store, ids: { try Self.sqliteIds(store, $0) }, total: { try Self.sqliteTotal(store, $0) })
    }

    /// A token over its bound with many rows loses only as many as cover the excess, oldest first, in one save.
    @Test func sqliteDropsOnlyWhatCoversTheExcess() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-resp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let many = (0..<2_000).map { Self.record("resp_\($0)", token: "t", order: Int64($0), bytes: 10 + $0 % 7) }
        let bytes = many.reduce(0) { $0 + $1.conversation.count }
        let dropped = try store.saveResponses(many, now: Date(millisecondsSince1970: Self.t0), maxBytesPerToken: bytes - 1_000)
        let kept = try Self.sqliteIds(store, "t")
        let keptBytes = try Self.sqliteTotal(store, "t")
        #expect(dropped["t"] == 2_000 - kept.count)
        #expect(kept.first == "resp_\(2_000 - kept.count)" && kept.last == "resp_1999")
        #expect(keptBytes <= Int64(bytes - 1_000) && keptBytes > Int64(bytes - 1_000 - 16))
    }

    /// A state file with stored responses from before schema step 11 gets their sizes and each token's total.
    @Test func stepElevenSizesTheStoredResponses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-resp-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        do {
            let db = try SQLiteConnection(path: dir + "/state.sqlite")
            try db.migrate(Array(StateSchema.steps.prefix(10)))
            for (id, token, text) in [("resp_1", "tok_a", "Grüße 漢字"), ("resp_2", "tok_a", "[]"), ("resp_3", "tok_b", "🎉")] {
                try db.statement("INSERT INTO stored_responses VALUES (?, ?, ?, ?, ?)")
                    .run([.text(id), .text(token), .integer(Self.t0), .integer(Self.t0 + 3_600_000), .text(text)])
            }
        }
        let store = try SQLiteStateStore(stateDirectory: dir)
        #expect(try store.schemaVersion() == StateSchema.steps.count)
        #expect(try Self.sqliteTotal(store, "tok_a") == Int64("Grüße 漢字".utf8.count + 2))
        #expect(try Self.sqliteTotal(store, "tok_b") == 4)
        #expect(try store.storedResponse(id: "resp_1", tokenId: "tok_a", now: Date(millisecondsSince1970: Self.t0))?.conversation == Array("Grüße 漢字".utf8))
    }

    @Test(.enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
    func postgresKeepsEachTokenWithinItsBound() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let store = try PostgresStateStore(url: db.url)
            try Self.check(store, ids: { token in
                try store.withConnection { c in
                    let r = try c.query("SELECT id FROM stored_responses WHERE token_id = $1 ORDER BY created_at, id", [token])
                    return (0..<r.count).map { r.text($0, 0) ?? "" }
                }
            }, total: { token in
                try store.withConnection { c in
                    let r = try c.query("SELECT bytes FROM stored_response_totals WHERE token_id = $1", [token])
                    return r.count > 0 ? r.int64(0, 0) : 0
                }
            })
        }
    }
}
