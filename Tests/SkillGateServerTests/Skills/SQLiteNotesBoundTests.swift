import Foundation
import Testing
import SkillGateCore
import SkillGateSkills
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// The notes skills over the SQLite state store: a token's notes are bounded (decision 0113), and a token deletes its
/// own notes only (decision 0118).
@Suite struct SQLiteNotesBoundTests {
    /// Through the skill, as the gateway runs it: the save after a token's 1,000th is refused and not stored.
    @Test func saveNoteStopsAtTheBound() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-notes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let skills = Dictionary(uniqueKeysWithValues: NotesSkills.all(store: StateNotesStore(store: store)).map { ($0.name, $0) })
        let save = try #require(skills["save_note"])
        let context = SkillContext(tokenName: "app", requestId: "r")
        let notes = StateNotesStore(store: store)
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

    /// `DELETE` by id and token: another token's id deletes nothing and answers as an unknown one does.
    @Test func aTokenDeletesOnlyItsOwnNotes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-notes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let notes = StateNotesStore(store: store)
        let mine = try #require(try notes.save(owner: "app", title: "t", text: "mine", maxNotes: 10))
        let theirs = try #require(try notes.save(owner: "other", title: nil, text: "theirs", maxNotes: 10))
        #expect(try notes.delete(owner: "app", id: theirs.id) == false)
        #expect(try notes.delete(owner: "app", id: theirs.id + 100) == false)
        #expect(try store.listNotes(tokenName: "other", limit: 10).map(\.text) == ["theirs"])
        #expect(try notes.delete(owner: "app", id: mine.id) == true)
        #expect(try store.listNotes(tokenName: "app", limit: 10).isEmpty)
        #expect(try notes.delete(owner: "app", id: mine.id) == false)
    }

    /// The bound the config sets reaches the SQLite store through the skill.
    @Test func aConfiguredBoundHoldsThroughTheStore() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-notes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try SQLiteStateStore(stateDirectory: dir)
        let skills = Dictionary(uniqueKeysWithValues: NotesSkills.all(store: StateNotesStore(store: store), maxNotes: 2).map { ($0.name, $0) })
        let context = SkillContext(tokenName: "app", requestId: "r")
        let first = try await skills["save_note"]!.execute(["text": "one"], context: context)
        _ = try await skills["save_note"]!.execute(["text": "two"], context: context)
        let refused = try await skills["save_note"]!.execute(["text": "three"], context: context)
        #expect(refused.isError && refused.text.contains("already has 2 notes"), "\(refused.text)")
        let id = try #require(first.payload?["id"]?.intValue)
        #expect(try await skills["delete_note"]!.execute(["id": .int(id)], context: context).isError == false)
        #expect(try await skills["save_note"]!.execute(["text": "three"], context: context).isError == false)
        #expect(try store.listNotes(tokenName: "app", limit: 10).map(\.text) == ["three", "two"])
    }
}
