import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// With `state.postgres_url`, the notes skills keep notes in PostgreSQL (decision 0122): a note saved through one
/// instance is found through the other, a deletion through either holds on both, and `skillgate notes` acts on the
/// same notes. Notes left in an instance's SQLite file from before are named in the log at start, not copied.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct TwoInstancesNotesTests {
    /// The notes calls may take 30 s, not 5: this suite checks what the instances share, not how fast a first call
    /// on a new connection is while the whole test suite loads both cores (a stress run, with PostgreSQL and the
    /// embedding server, timed 6 of 20 first saves out at 5 s).
    static func config(_ db: PostgresTestDatabase) -> String {
        #","state":{"postgres_url":"\#(db.url)"},"server_skills":{"builtin":["notes"],"notes":{"timeout_seconds":30}},"#
            + #""skill_packs":{"notes":["save_note","search_notes","list_notes","delete_note"]},"default_scenario":"chat""#
    }
    static let scenarios = #"{"chat":{"skill_packs":["notes"]}}"#

    /// A `tools/call` through `/mcp`: the result's text, and whether it is an error.
    static func call(_ h: TeamHarness, _ tool: String, _ arguments: JSONValue, token: String? = nil) async throws -> (text: String, isError: Bool, id: Int?) {
        let body: JSONValue = ["jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": .string(tool), "arguments": arguments]]
        let r = try await h.post("/mcp", body.serialized(), token: token)
        let answer = try JSONValue.parse(r.body)
        let result = answer["result"]
        return (result?["content"]?.arrayValue?.first?["text"]?.stringValue ?? "\(answer)", result?["isError"] == true,
                result?["structuredContent"]?["id"]?.intValue)
    }

    @Test func aNoteSavedThroughOneInstanceIsFoundAndDeletedThroughTheOther() async throws {
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { Thread.detachNewThread { db.drop() } }
        let a = try TeamHarness(extraConfig: Self.config(db), scenarios: Self.scenarios, start: nil)
        let b = try TeamHarness(extraConfig: Self.config(db), scenarios: Self.scenarios, start: nil, existingToken: a.token)
        let other = try a.server.services.tokens.create(name: "team-other").token

        let saved = try await Self.call(a, "save_note", ["title": "Trip", "text": "Book the train to Lyon"])
        let onB = try await Self.call(b, "search_notes", ["query": "LYON train"])
        let listedOnB = try await Self.call(b, "list_notes", [:])
        // Another token's delete through B answers as for an id nobody has, and the note stays.
        let id = try #require(saved.id, "\(saved.text)")
        let othersDelete = try await Self.call(b, "delete_note", ["id": .int(id)], token: other)
        let unknownDelete = try await Self.call(b, "delete_note", ["id": .int(id + 1_000)], token: other)
        let othersList = try await Self.call(a, "list_notes", [:], token: other)
        let deletedOnB = try await Self.call(b, "delete_note", ["id": .int(id)])
        let listedOnA = try await Self.call(a, "list_notes", [:])
        // The next note through B gets a new id, not the deleted one's.
        let next = try await Self.call(b, "save_note", ["text": "second"])
        let url = db.url
        let inDatabase = try await offThePool { try PostgresStateStore(url: url).listNotes(tokenName: "team-app", limit: 10).map(\.text) }
        let inFiles = try [a, b].map { try SQLiteStateStore(stateDirectory: $0.dir.appendingPathComponent("state").path).noteCounts().count }
        await a.stop()
        await b.stop()

        #expect(saved.isError == false && saved.text == "Saved note #\(id) \"Trip\".", "\(saved.text)")
        #expect(onB.isError == false && onB.text.contains("#\(id) ") && onB.text.contains("Trip: Book the train to Lyon"), "B finds A's note: \(onB.text)")
        #expect(listedOnB.text.contains("#\(id) "), "\(listedOnB.text)")
        #expect(othersDelete.isError && unknownDelete.isError)
        #expect(othersDelete.text.replacingOccurrences(of: "#\(id) ", with: "#N ") == unknownDelete.text.replacingOccurrences(of: "#\(id + 1_000) ", with: "#N "))
        #expect(othersList.text.contains("no saved notes"), "\(othersList.text)")
        #expect(deletedOnB.isError == false && deletedOnB.text == "Deleted note #\(id).", "\(deletedOnB.text)")
        #expect(listedOnA.text.contains("no saved notes"), "A sees B's deletion: \(listedOnA.text)")
        #expect(next.id.map { $0 > id } == true, "\(next.text)")
        #expect(inDatabase == ["second"])
        #expect(inFiles == [0, 0], "nothing written to the instances' SQLite files")
    }

    /// Notes in the SQLite file from before `state.postgres_url` stay there: the gateway says so at start (how many,
    /// how to see and delete them) and does not use them; `skillgate notes` acts on PostgreSQL's notes, and on the
    /// file's with `--sqlite`.
    @Test func notesLeftInTheStateFileAreNamedAtStartAndTheCLIUsesPostgreSQL() async throws {
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { Thread.detachNewThread { db.drop() } }
        let stateDir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-notes-left-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: stateDir) }
        do {
            let file = try SQLiteStateStore(stateDirectory: stateDir)
            for text in ["old one", "old two"] { _ = try file.saveNote(tokenName: "team-app", title: nil, text: text) }
            _ = try file.saveNote(tokenName: "someone", title: nil, text: "old three")
        }
        let a = try TeamHarness(extraConfig: Self.config(db), scenarios: Self.scenarios, start: nil, stateDirectory: stateDir)
        let listed = try await Self.call(a, "list_notes", [:])
        let saved = try await Self.call(a, "save_note", ["text": "new one"])
        await a.server.flushLog()
        let log = (try? String(contentsOfFile: a.logPath, encoding: .utf8)) ?? ""
        let config = a.server.services.config
        let (viaCLI, fileViaCLI) = try await offThePool {
            (try NotesAdmin.list(try NotesAdmin.openStore(config: config, sqliteFile: false), token: "team-app", limit: 10, json: false).output,
             try NotesAdmin.owners(try NotesAdmin.openStore(config: config, sqliteFile: true), json: false).output)
        }
        await a.stop()

        #expect(listed.text.contains("no saved notes"), "the file's notes are not used: \(listed.text)")
        #expect(saved.isError == false)
        let warning = log.split(separator: "\n").first { $0.contains("state.sqlite holds 3 notes of 2 token names") }
        #expect(warning != nil, "\(log)")
        #expect(warning?.contains("\"warn\"") == true && warning?.contains("skillgate notes list --sqlite") == true)
        #expect(warning?.contains(db.url) == false && warning?.contains("postgresql://") == false, "the URL is never logged")
        #expect(viaCLI.contains("new one") && !viaCLI.contains("old one"), "\(viaCLI)")
        #expect(fileViaCLI == "TOKEN\tNOTES\nsomeone\t1\nteam-app\t2\n")
    }
}
