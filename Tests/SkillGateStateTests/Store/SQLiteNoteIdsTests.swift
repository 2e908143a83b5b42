import Foundation
import Testing
import SkillGateCore
@testable import SkillGateState

/// Note ids are never given again (schema step 12, decision 0121): before, deleting a token's highest note and saving
/// another gave the new note the deleted one's id, so a model or client holding "#3" reached a different note.
@Suite struct SQLiteNoteIdsTests {
    static func directory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-note-ids-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func theHighestNotesIdIsNotGivenAgainAfterItsDelete() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let ids = try (1...3).map { n in try #require(try store.saveNote(tokenName: "app", title: nil, text: "note \(n)")).id }
        #expect(try store.deleteNote(tokenName: "app", id: ids[2]))
        let next = try #require(try store.saveNote(tokenName: "app", title: nil, text: "after the delete"))
        #expect(next.id == ids[2] + 1)
        // Nor after a restart.
        #expect(try store.deleteNote(tokenName: "app", id: next.id))
        let reopened = try SQLiteStateStore(stateDirectory: dir)
        #expect(try reopened.saveNote(tokenName: "app", title: nil, text: "after a restart")?.id == next.id + 1)
    }

    /// A state file from before step 12 keeps its notes, ids and index, and its next note is numbered after the highest.
    @Test func stepTwelveKeepsTheNotesOfAnOlderFile() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let db = try SQLiteConnection(path: dir + "/state.sqlite")
            try db.migrate(Array(StateSchema.steps.prefix(11)))
            for (id, token, title, body, at) in [(1, "a", "plan", "the plan", 1_000), (2, "b", nil, "b's note", 2_000), (7, "a", nil, "Grüße 漢字", 3_000)] {
                try db.statement("INSERT INTO notes (id, token_name, title, body, created_at) VALUES (?, ?, ?, ?, ?)")
                    .run([.int(id), .text(token), .optionalText(title), .text(body), .integer(Int64(at))])
            }
        }
        let store = try SQLiteStateStore(stateDirectory: dir)
        #expect(try store.schemaVersion() == StateSchema.steps.count)
        let a = try store.listNotes(tokenName: "a", limit: 10)
        #expect(a.map(\.id) == [7, 1] && a.map(\.text) == ["Grüße 漢字", "the plan"] && a.map(\.title) == [nil, "plan"])
        #expect(a.map(\.createdAt) == [Date(millisecondsSince1970: 3_000), Date(millisecondsSince1970: 1_000)])
        #expect(try store.listNotes(tokenName: "b", limit: 10).map(\.id) == [2])
        let (sql, index, sequence) = try store.withConnection { db in
            (try db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'notes'").firstRow { $0.text(0) } ?? "",
             try db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'notes_token_time' AND tbl_name = 'notes'").firstRow { $0.int64(0) },
             try db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'notes'").firstRow { $0.int64(0) })
        }
        #expect(sql.contains("AUTOINCREMENT") && index == 1 && sequence == 7, "\(sql)")
        #expect(try store.deleteNote(tokenName: "a", id: 7))
        #expect(try store.saveNote(tokenName: "a", title: nil, text: "new")?.id == 8)
    }
}
