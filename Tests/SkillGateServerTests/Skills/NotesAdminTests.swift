import Foundation
import Testing
import SkillGateCore
import SkillGateState
@testable import SkillGateServer

/// `skillgate notes` (decision 0121): an operator lists and deletes a token's notes without SQL.
@Suite struct NotesAdminTests {
    /// A state store with notes of `app` (three, the last two lines long) and of `other` (one).
    static func store() throws -> (SQLiteStateStore, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-notes-admin-\(UUID().uuidString)").path
        let store = try SQLiteStateStore(stateDirectory: dir)
        _ = try store.saveNote(tokenName: "app", title: "plan", text: "the plan", at: Date(timeIntervalSince1970: 1))
        _ = try store.saveNote(tokenName: "other", title: nil, text: "other's note", at: Date(timeIntervalSince1970: 2))
        _ = try store.saveNote(tokenName: "app", title: nil, text: "line one\nline two\twith a tab", at: Date(timeIntervalSince1970: 3))
        _ = try store.saveNote(tokenName: "app", title: nil, text: String(repeating: "x", count: 200), at: Date(timeIntervalSince1970: 4))
        return (store, dir)
    }

    /// A note's control characters are shown, never sent to the operator's terminal (decision 0124): any token holder
    /// writes notes, and an ESC sequence in one cleared the screen, retitled the window or set the clipboard (OSC 52)
    /// when the operator listed them.
    @Test func controlCharactersOfANoteAreShownNotSent() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try store.saveNote(tokenName: "evil", title: "\u{1B}]0;owned\u{07}", text: "ok\u{1B}[2J\u{1B}]52;c;cm0gLXJmIH4=\u{07}\r9\tfake\u{7F}\u{9B}31m\u{0}", at: Date(timeIntervalSince1970: 5))
        let table = try NotesAdmin.list(store, token: "evil", limit: 50, json: false).output
        #expect(!table.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || (0x7F...0x9F).contains($0.value) }, "\(table.debugDescription)")
        #expect(table.hasSuffix("\t␛]0;owned␇\tok␛[2J␛]52;c;cm0gLXJmIH4=␇ 9 fake␡�31m␀\n"), "\(table.debugDescription)")
        // The JSON keeps the text whole, escaped.
        let json = try NotesAdmin.list(store, token: "evil", limit: 50, json: true).output
        #expect(!json.contains("\u{1B}") && json.contains("\\u001b"), "\(json)")
    }

    @Test func listsTheOwnersAndATokensNotes() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try NotesAdmin.owners(store, json: false).output == "TOKEN\tNOTES\napp\t3\nother\t1\n")
        #expect(try JSONValue.parse(NotesAdmin.owners(store, json: true).output) == ["tokens": [["token": "app", "notes": 3], ["token": "other", "notes": 1]]])

        let table = try NotesAdmin.list(store, token: "app", limit: 50, json: false)
        let lines = table.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4 && lines[0] == "ID\tCREATED\tTITLE\tTEXT")
        #expect(lines[1] == "4\t1970-01-01T00:00:04Z\t\t" + String(repeating: "x", count: 79) + "…")
        #expect(lines[2] == "3\t1970-01-01T00:00:03Z\t\tline one line two with a tab")
        #expect(lines[3] == "1\t1970-01-01T00:00:01Z\tplan\tthe plan")
        #expect(table.note == nil)

        let cut = try NotesAdmin.list(store, token: "app", limit: 1, json: true)
        let json = try JSONValue.parse(cut.output)
        #expect(json["token"] == "app" && json["total"] == 3 && json["notes"]?.arrayValue?.count == 1)
        #expect(json["notes"]?.arrayValue?.first?["text"]?.stringValue?.count == 200 && json["notes"]?.arrayValue?.first?["id"] == 4)
        #expect(cut.note == "the newest 1 of 3 notes of \"app\"; --limit 3 shows them all")
    }

    @Test func aNameWithoutNotesIsAnsweredWithTheNamesThatHaveSome() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let listed = try NotesAdmin.list(store, token: "ap", limit: 50, json: false)
        #expect(listed.output == "ID\tCREATED\tTITLE\tTEXT\n")
        #expect(listed.note == "\"ap\" has no notes; token names with notes: app (3), other (1)")
        #expect(throws: NotesAdmin.Failure(description: "\"ap\" has no notes; token names with notes: app (3), other (1)")) {
            try NotesAdmin.deleteAll(store, token: "ap")
        }
    }

    @Test func deletesOneNoteOfTheTokenNamedOnly() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Note 2 is `other`'s: not reached through `app`.
        #expect(throws: NotesAdmin.Failure(description: "\"app\" has no note #2; `skillgate notes list --token app` shows its notes' ids")) {
            try NotesAdmin.delete(store, token: "app", id: 2)
        }
        #expect(try store.listNotes(tokenName: "other", limit: 10).count == 1)
        #expect(try NotesAdmin.delete(store, token: "app", id: 3) == NotesAdmin.Printout(output: "", note: "deleted note #3 of \"app\""))
        #expect(try store.listNotes(tokenName: "app", limit: 10).map(\.id) == [4, 1])
        #expect(throws: NotesAdmin.Failure.self) { try NotesAdmin.delete(store, token: "app", id: 3) }
        #expect(NotesAdmin.shellQuoted("it's me") == #"'it'\''s me'"#)
    }

    @Test func deletesEveryNoteOfAToken() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try NotesAdmin.deleteAll(store, token: "app").note == "deleted 3 notes of \"app\"")
        #expect(try store.noteCounts().map(\.tokenName) == ["other"])
        #expect(try NotesAdmin.deleteAll(store, token: "other").note == "deleted 1 note of \"other\"")
        #expect(throws: NotesAdmin.Failure(description: "\"other\" has no notes, and no token has any")) {
            try NotesAdmin.deleteAll(store, token: "other")
        }
        #expect(try NotesAdmin.owners(store, json: false) == NotesAdmin.Printout(output: "TOKEN\tNOTES\n", note: "no token has notes"))
    }
}
