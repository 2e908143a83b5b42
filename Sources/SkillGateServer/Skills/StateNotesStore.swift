import FoundationEssentials
import SkillGateSkills
import SkillGateState

/// The notes skills' storage in the gateway's state store (table `notes`), so notes survive restarts: the SQLite file,
/// or PostgreSQL with `state.postgres_url`, where every instance sees the same notes (decision 0122). Owners are
/// client token names.
public struct StateNotesStore: NotesStore {
    let store: any NoteStateStore

    public init(store: any NoteStateStore) { self.store = store }

    public func save(owner: String, title: String?, text: String, maxNotes: Int) throws -> Note? {
        try store.saveNote(tokenName: owner, title: title, text: text, maxNotes: maxNotes, at: Date()).map(Self.note)
    }

    public func search(owner: String, words: [String], limit: Int) throws -> [Note] {
        try store.searchNotes(tokenName: owner, words: words, limit: limit).map(Self.note)
    }

    public func list(owner: String, limit: Int) throws -> [Note] {
        try store.listNotes(tokenName: owner, limit: limit).map(Self.note)
    }

    public func delete(owner: String, id: Int64) throws -> Bool {
        try store.deleteNote(tokenName: owner, id: id)
    }

    private static func note(_ n: StoredNote) -> Note {
        Note(id: n.id, title: n.title, text: n.text, createdAt: n.createdAt)
    }
}
