import Foundation
import Testing
import SkillGateCore
import SkillGateSkills
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// The notes skills over the SQLite state store: a token's notes are bounded (decision 0113).
@Suite struct SQLiteNotesBoundTests {
    /// Through the skill, as the gateway runs it: the save after a token's 1,000th is refused and not stored.
    @Test func saveNoteStopsAtTheBound() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-notes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let skills = Dictionary(uniqueKeysWithValues: NotesSkills.all(store: SQLiteNotesStore(store: store)).map { ($0.name, $0) })
        let save = try #require(skills["save_note"])
        let context = SkillContext(tokenName: "app", requestId: "r")
        let notes = SQLiteNotesStore(store: store)
        let filled = try await offThePool {
            try (1...1_000).filter { n in try notes.save(owner: "app", title: nil, text: "note \(n)", maxNotes: NotesSkills.maxNotesPerOwner) != nil }.count
        }
        #expect(filled == 1_000)
        let refused = try await save.execute(["text": "one too many"], context: context)
        #expect(refused.isError && refused.text.contains("1000 notes"), "\(refused.text)")
        #expect(try store.listNotes(tokenName: "app", limit: 2_000).count == 1_000)
    }

    /// Saves racing each other from several threads cannot pass the bound together: the count and the insert are one
    /// statement.
    @Test func racingSavesStayWithinTheBound() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-notes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let saved = try await withThrowingTaskGroup(of: Int.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    try await offThePool {
                        try (0..<10).filter { n in try store.saveNote(tokenName: "app", title: nil, text: "\(thread).\(n)", maxNotes: 5) != nil }.count
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(saved == 5)
        #expect(try store.listNotes(tokenName: "app", limit: 100).count == 5)
        #expect(try store.saveNote(tokenName: "other", title: nil, text: "x", maxNotes: 5) != nil)
    }
}
