import Foundation
import Synchronization
import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateState
@testable import SkillGateServer

/// A failing notes store is reported to the operator's log, and the model and the client read only that notes are
/// unavailable (decision 0124): before, the skills' error results quoted the store's message — the database's host,
/// address, port and name, and "check state.postgres_url" — to any token holder, through `/mcp` and `/v1/agent`.
@Suite struct StateNotesStoreFailureTests {
    /// A store whose every call fails as PostgreSQL's do when the server is away.
    struct FailingStore: NoteStateStore {
        static let failure = PostgresError(message: "connection to server at \"db.internal\" (10.0.3.4), port 5432 failed: Connection refused — check state.postgres_url and that the server is running and reachable",
                                           context: "connecting to db.internal:5432/skillgate")
        func saveNote(tokenName: String, title: String?, text: String, maxNotes: Int, at date: Date) throws -> StoredNote? { throw Self.failure }
        func searchNotes(tokenName: String, words: [String], limit: Int) throws -> [StoredNote] { throw Self.failure }
        func listNotes(tokenName: String, limit: Int) throws -> [StoredNote] { throw Self.failure }
        func deleteNote(tokenName: String, id: Int64) throws -> Bool { throw Self.failure }
        func deleteNotes(tokenName: String) throws -> Int { throw Self.failure }
        func noteCounts() throws -> [(tokenName: String, count: Int)] { throw Self.failure }
    }

    @Test func aStoreFailureIsLoggedAndNotShownToTheClient() async throws {
        let logged = Mutex<[String]>([])
        let store = StateNotesStore(store: FailingStore(), failed: { line in logged.locked { $0.append(line) } })
        let skills = Dictionary(uniqueKeysWithValues: NotesSkills.all(store: store).map { ($0.name, $0) })
        let context = SkillContext(tokenName: "app", requestId: "req_1")
        let calls: [(String, JSONValue)] = [("save_note", ["text": "x"]), ("search_notes", ["query": "x"]), ("list_notes", [:]), ("delete_note", ["id": 1])]
        for (name, arguments) in calls {
            let result = try await SkillExecution.run(try #require(skills[name]), arguments: arguments, context: context, timeout: .seconds(30))
            #expect(result.isError)
            for secret in ["db.internal", "10.0.3.4", "5432", "postgres_url", "PostgreSQL"] {
                #expect(!result.text.contains(secret), "\(name) showed \(secret): \(result.text)")
            }
            #expect(result.text.contains("cannot be reached right now") && result.text.contains("try again"), "\(result.text)")
        }
        let lines = logged.locked { $0 }
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0.contains("db.internal:5432/skillgate") && $0.contains("Connection refused") }, "\(lines)")
        #expect(lines.first?.contains("while saving a note") == true, "\(lines)")
    }
}
