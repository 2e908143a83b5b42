import FoundationEssentials
import SkillGateSkills
import SkillGateState

/// The notes skills' storage in the gateway's state store (table `notes`), so notes survive restarts: the SQLite file,
/// or PostgreSQL with `state.postgres_url`, where every instance sees the same notes (decision 0122). Owners are
/// client token names.
///
/// A store's failure is handed to `failed` (the gateway's log) and thrown on as `NotesUnavailable`, whose text tells the
/// model and the client only that notes cannot be reached now: the store's own message named the database's host,
/// port and name, a state file's path or the SQL being run, and told a client to "check state.postgres_url"
/// (decision 0124).
public struct StateNotesStore: NotesStore {
    let store: any NoteStateStore
    let failed: @Sendable (String) -> Void

    /// `failed` receives each failure of the store, with its cause, for the operator.
    public init(store: any NoteStateStore, failed: @escaping @Sendable (String) -> Void = { _ in }) {
        self.store = store
        self.failed = failed
    }

    public func save(owner: String, title: String?, text: String, maxNotes: Int) throws -> Note? {
        try guarded("saving a note") { try store.saveNote(tokenName: owner, title: title, text: text, maxNotes: maxNotes, at: Date()).map(Self.note) }
    }

    public func search(owner: String, words: [String], limit: Int) throws -> [Note] {
        try guarded("searching notes") { try store.searchNotes(tokenName: owner, words: words, limit: limit).map(Self.note) }
    }

    public func list(owner: String, limit: Int) throws -> [Note] {
        try guarded("listing notes") { try store.listNotes(tokenName: owner, limit: limit).map(Self.note) }
    }

    public func delete(owner: String, id: Int64) throws -> Bool {
        try guarded("deleting a note") { try store.deleteNote(tokenName: owner, id: id) }
    }

    /// `body`, with a failure of the store reported to `failed` and thrown as `NotesUnavailable`.
    private func guarded<T>(_ doing: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            failed("the notes skills could not reach their store while \(doing): \(error); they answered that notes are unavailable")
            throw NotesUnavailable()
        }
    }

    private static func note(_ n: StoredNote) -> Note {
        Note(id: n.id, title: n.title, text: n.text, createdAt: n.createdAt)
    }
}

/// The notes' store failed; what a model and a client read of it (the cause is in the gateway's log).
public struct NotesUnavailable: Error, CustomStringConvertible {
    public var description: String {
        "the notes cannot be reached right now (the cause is in the gateway's log); try again in a minute"
    }
}
