import FoundationEssentials
import Glibc
import Dispatch
import Synchronization
import SkillGateCore

/// A saved note.
public struct Note: Sendable, Hashable {
    public var id: Int64
    public var title: String?
    public var text: String
    public var createdAt: Date

    public init(id: Int64, title: String?, text: String, createdAt: Date) {
        self.id = id
        self.title = title
        self.text = text
        self.createdAt = createdAt
    }
}

/// Where the notes skills keep notes, per owner (the client token's name). The gateway uses its state store, SQLite or
/// PostgreSQL (SkillGateServer's `StateNotesStore`, decision 0122); tests use `InMemoryNotesStore`.
public protocol NotesStore: Sendable {
    /// Saves a note for `owner` and returns it with its id; nil (and nothing saved) when `owner` has `maxNotes` already.
    /// An id is never given again, even after its note is deleted (a model or client may still hold it).
    func save(owner: String, title: String?, text: String, maxNotes: Int) throws -> Note?
    /// Notes of `owner` whose title or text contains every word of `words` in any case (Unicode simple case folding,
    /// `CaseFolding`: "über" finds "Über", "дом" "ДОМ"; decision 0124), newest first.
    func search(owner: String, words: [String], limit: Int) throws -> [Note]
    /// The newest notes of `owner`.
    func list(owner: String, limit: Int) throws -> [Note]
    /// Deletes `owner`'s note `id`; false (and nothing deleted) when `owner` has no note with that id, whether the id
    /// is unknown or another owner's.
    func delete(owner: String, id: Int64) throws -> Bool
}

/// Notes in memory (tests, and gateways without a state store).
public final class InMemoryNotesStore: NotesStore {
    private struct State {
        var notes: [(owner: String, note: Note)] = []
        /// The last id given: ids count up and are not given again after a delete.
        var lastId: Int64 = 0
    }
    private let state = Mutex(State())

    public init() {}

    public func save(owner: String, title: String?, text: String, maxNotes: Int) throws -> Note? {
        state.locked { state in
            guard state.notes.count(where: { $0.owner == owner }) < maxNotes else { return nil }
            state.lastId += 1
            let note = Note(id: state.lastId, title: title, text: text, createdAt: Date())
            state.notes.append((owner, note))
            return note
        }
    }

    public func search(owner: String, words: [String], limit: Int) throws -> [Note] {
        let folded = words.map(CaseFolding.folded)
        return try list(owner: owner, limit: Int.max).filter { note in
            let title = CaseFolding.folded(note.title ?? ""), text = CaseFolding.folded(note.text)
            return folded.allSatisfy { title.contains($0) || text.contains($0) }
        }.prefix(limit).map { $0 }
    }

    public func list(owner: String, limit: Int) throws -> [Note] {
        state.locked { state in state.notes.filter { $0.owner == owner }.map(\.note).reversed().prefix(limit).map { $0 } }
    }

    public func delete(owner: String, id: Int64) throws -> Bool {
        state.locked { state in
            guard let i = state.notes.firstIndex(where: { $0.owner == owner && $0.note.id == id }) else { return false }
            state.notes.remove(at: i)
            return true
        }
    }
}
