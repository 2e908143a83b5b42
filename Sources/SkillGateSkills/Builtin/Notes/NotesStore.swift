import FoundationEssentials
import Glibc
import Dispatch
import Synchronization

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

/// Where the notes skills keep notes, per owner (the client token's name). The gateway uses the
/// SQLite state store (SkillGateServer's `SQLiteNotesStore`); tests use `InMemoryNotesStore`.
public protocol NotesStore: Sendable {
    /// Saves a note for `owner` and returns it with its id; nil (and nothing saved) when `owner` has `maxNotes` already.
    func save(owner: String, title: String?, text: String, maxNotes: Int) throws -> Note?
    /// Notes of `owner` whose title or text contains every word of `words` (case-insensitive), newest first.
    func search(owner: String, words: [String], limit: Int) throws -> [Note]
    /// The newest notes of `owner`.
    func list(owner: String, limit: Int) throws -> [Note]
}

/// Notes in memory (tests, and gateways without a state store).
public final class InMemoryNotesStore: NotesStore {
    private let notes = Mutex<[(owner: String, note: Note)]>([])

    public init() {}

    public func save(owner: String, title: String?, text: String, maxNotes: Int) throws -> Note? {
        notes.withLock { all in
            guard all.count(where: { $0.owner == owner }) < maxNotes else { return nil }
            let note = Note(id: Int64(all.count + 1), title: title, text: text, createdAt: Date())
            all.append((owner, note))
            return note
        }
    }

    public func search(owner: String, words: [String], limit: Int) throws -> [Note] {
        let lowered = words.map { $0.lowercased() }
        return try list(owner: owner, limit: Int.max).filter { note in
            let haystack = ((note.title ?? "") + "\n" + note.text).lowercased()
            return lowered.allSatisfy { haystack.contains($0) }
        }.prefix(limit).map { $0 }
    }

    public func list(owner: String, limit: Int) throws -> [Note] {
        notes.withLock { all in all.filter { $0.owner == owner }.map(\.note).reversed().prefix(limit).map { $0 } }
    }
}
