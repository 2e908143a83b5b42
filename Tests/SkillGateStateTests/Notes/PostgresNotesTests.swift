import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateState

/// What only PostgreSQL's notes have to show (decision 0122): the bound holds for savers on different connections (two
/// instances), ids stay unique and rising across them and across a reopening, the schema step, and the NUL a text
/// column cannot hold.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct PostgresNotesTests {
    /// Two stores (two connections, as two instances have) save for the same tokens at once, each token bounded at 3
    /// notes: no token ends with more than 3, however the saves interleave.
    @Test func twoInstancesSavingAtOnceStayWithinTheBound() async throws {
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { db.drop() }
        let url = db.url
        let (a, b) = try await offThePool { (try PostgresStateStore(url: url), try PostgresStateStore(url: url)) }
        let tokens = 60, attempts = 3, bound = 3
        let saved = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for (n, store) in [a, b].enumerated() {
                group.addTask {
                    try await offThePool {
                        var ids: [Int64] = []
                        for t in 0..<tokens {
                            for i in 0..<attempts {
                                if let note = try store.saveNote(tokenName: "t\(t)", title: nil, text: "\(n).\(i)", maxNotes: bound) { ids.append(note.id) }
                            }
                        }
                        return ids
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let counts = try await offThePool { try a.noteCounts() }
        #expect(counts.count == tokens)
        #expect(counts.filter { $0.count != bound }.map { "\($0.tokenName)=\($0.count)" } == [], "each token exactly at its bound")
        #expect(saved.count == tokens * bound)
        #expect(Set(saved).count == saved.count, "no id given twice")
    }

    /// Ids rise across instances and reopenings and are not given again after a delete of the highest.
    @Test func idsAreNeverGivenAgainAcrossInstances() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let a = try PostgresStateStore(url: db.url)
            let first = try #require(try a.saveNote(tokenName: "app", title: nil, text: "one"))
            let second = try #require(try a.saveNote(tokenName: "app", title: nil, text: "two"))
            #expect(try a.deleteNote(tokenName: "app", id: second.id))
            let b = try PostgresStateStore(url: db.url)
            let third = try #require(try b.saveNote(tokenName: "app", title: nil, text: "three"))
            #expect(third.id > second.id && second.id > first.id)
            #expect(try a.listNotes(tokenName: "app", limit: 10).map(\.text) == ["three", "one"], "each instance sees the other's notes")
        }
    }

    /// Step 8 made the table and its index; a save of a text with NUL is refused with what to do, and nothing written;
    /// the notes' connection is not the main one.
    @Test func theSchemaStepAndTheNulCharacter() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            let store = try PostgresStateStore(url: db.url)
            let (version, index) = try store.withConnection { c in
                (try c.query("SELECT version FROM skillgate_schema").int64(0, 0),
                 try c.query("SELECT indexdef FROM pg_indexes WHERE tablename = 'notes' AND indexname = 'notes_token_time'").text(0, 0))
            }
            #expect(version == Int64(PostgresSchema.steps.count) && version >= 8)
            #expect(index?.contains("(token_name, created_at, id)") == true)
            let error = #expect(throws: PostgresError.self) { try store.saveNote(tokenName: "app", title: nil, text: "a\u{0}b") }
            #expect(error?.description.contains("remove it and save again") == true)
            #expect(try store.listNotes(tokenName: "app", limit: 10).isEmpty)
            #expect(try store.searchNotes(tokenName: "app", words: ["a\u{0}"], limit: 10).isEmpty)
            // The notes have a connection of their own: never the main one of token lookups and ledger batches.
            let main = try store.withConnection { try $0.query("SELECT pg_backend_pid()").int64(0, 0) }
            let notes = try store.withNotesConnection { try $0.query("SELECT pg_backend_pid()").int64(0, 0) }
            #expect(main != notes)
        }
    }
}
