import FoundationEssentials

/// A note row of the state store (the built-in notes skills' storage).
public struct StoredNote: Sendable, Hashable {
    public var id: Int64
    public var tokenName: String
    public var title: String?
    public var text: String
    public var createdAt: Date
}

/// Where the built-in notes skills and `skillgate notes` keep notes, by token name: the SQLite state file, or PostgreSQL
/// when `state.postgres_url` is set so that every instance sees the same notes (decision 0122). Both answer alike:
/// the bound is checked and the note inserted atomically, ids are never given again, words match in any case (both
/// sides in Unicode simple case folding, `CaseFolding`, decision 0124), and an id is found only with its own token's name.
public protocol NoteStateStore: Sendable {
    /// Inserts a note for `tokenName`, unless it has `maxNotes` notes already: then nothing is written and the answer is
    /// nil. Saves racing each other (on one instance or on several) cannot pass the bound together.
    func saveNote(tokenName: String, title: String?, text: String, maxNotes: Int, at date: Date) throws -> StoredNote?
    /// `tokenName`'s notes whose title or text contains every one of `words` in any case (Unicode simple
    /// case folding: "über" finds "Über", "οδος" "ΟΔΟΣ"), newest first.
    func searchNotes(tokenName: String, words: [String], limit: Int) throws -> [StoredNote]
    /// `tokenName`'s newest notes.
    func listNotes(tokenName: String, limit: Int) throws -> [StoredNote]
    /// Deletes `tokenName`'s note `id`: false, and nothing deleted, when `tokenName` has no note with that id.
    func deleteNote(tokenName: String, id: Int64) throws -> Bool
    /// Deletes every note of `tokenName` and returns how many there were.
    func deleteNotes(tokenName: String) throws -> Int
    /// How many notes each token name has, by name in byte order.
    func noteCounts() throws -> [(tokenName: String, count: Int)]
}
