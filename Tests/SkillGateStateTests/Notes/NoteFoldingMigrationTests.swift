import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateState

/// Notes saved before the folded copies existed (SQLite step 13, PostgreSQL step 9, decision 0124) are folded when the
/// store opens the file or database, so a search in another case finds them; a note an instance from before the step
/// saves meanwhile (PostgreSQL: its copies NULL) is still found in ASCII case, and folded at the next open.
@Suite struct NoteFoldingMigrationTests {
    @Test func anOlderStateFilesNotesAreFoldedAtOpen() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-note-fold-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let db = try SQLiteConnection(path: dir + "/state.sqlite")
            try db.migrate(Array(StateSchema.steps.prefix(12)))
            for (token, title, body, at) in [("a", "ÄRGER", "Über den Fluß", 1_000), ("a", nil, "ДОМ и ΟΔΟΣ", 2_000), ("b", nil, "über", 3_000)] {
                try db.statement("INSERT INTO notes (token_name, title, body, created_at) VALUES (?, ?, ?, ?)")
                    .run([.text(token), .optionalText(title), .text(body), .integer(Int64(at))])
            }
            // More than one batch of the fold.
            try db.transaction {
                for n in 0..<1_203 {
                    try db.statement("INSERT INTO notes (token_name, title, body, created_at) VALUES (?, ?, ?, ?)")
                        .run([.text("many"), .null, .text("Ÿ \(n)"), .integer(Int64(10_000 + n))])
                }
            }
        }
        let store = try SQLiteStateStore(stateDirectory: dir)
        #expect(try store.schemaVersion() == StateSchema.steps.count)
        #expect(try store.searchNotes(tokenName: "a", words: ["über"], limit: 10).map(\.text) == ["Über den Fluß"])
        #expect(try store.searchNotes(tokenName: "a", words: ["ärger"], limit: 10).map(\.title) == ["ÄRGER"])
        #expect(try store.searchNotes(tokenName: "a", words: ["дом", "οδος"], limit: 10).map(\.text) == ["ДОМ и ΟΔΟΣ"])
        #expect(try store.searchNotes(tokenName: "many", words: ["ÿ"], limit: 2_000).count == 1_203)
        let unfolded = try store.withConnection { db in
            try db.prepare("SELECT count(*) FROM notes WHERE body_folded IS NULL").firstRow { $0.int64(0) }
        }
        #expect(unfolded == 0)
    }

    @Test(.enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
    func anOlderDatabasesNotesAreFoldedAtOpen() async throws {
        try await offThePool {
            let test = try PostgresTestDatabase()
            defer { test.drop() }
            do {
                let db = try test.connection(schemaThrough: 8)
                for (token, title, body, at) in [("a", "ÄRGER", "Über den Fluß", "1000"), ("a", nil, "ДОМ и ΟΔΟΣ", "2000"), ("b", nil, "über", "3000")] {
                    try db.query("INSERT INTO notes (token_name, title, body, created_at) VALUES ($1, $2, $3, $4)", [token, title, body, at])
                }
            }
            let store = try PostgresStateStore(url: test.url)
            #expect(try store.searchNotes(tokenName: "a", words: ["über"], limit: 10).map(\.text) == ["Über den Fluß"])
            #expect(try store.searchNotes(tokenName: "a", words: ["ärger"], limit: 10).map(\.title) == ["ÄRGER"])
            #expect(try store.searchNotes(tokenName: "a", words: ["дом", "οδος"], limit: 10).map(\.text) == ["ДОМ и ΟΔΟΣ"])
            // An instance from before step 9 saves a note without its copies: found in ASCII case until the next open folds it.
            try store.withConnection { db in
                _ = try db.query("INSERT INTO notes (token_name, title, body, created_at) VALUES ('a', NULL, 'OLD Öl', 4000)")
            }
            #expect(try store.searchNotes(tokenName: "a", words: ["old"], limit: 10).map(\.text) == ["OLD Öl"])
            #expect(try store.searchNotes(tokenName: "a", words: ["öl"], limit: 10).isEmpty)
            let reopened = try PostgresStateStore(url: test.url)
            #expect(try reopened.searchNotes(tokenName: "a", words: ["öl"], limit: 10).map(\.text) == ["OLD Öl"])
            let unfolded = try reopened.withConnection { try $0.query("SELECT count(*) FROM notes WHERE body_folded IS NULL").int64(0, 0) }
            #expect(unfolded == 0)
        }
    }
}
