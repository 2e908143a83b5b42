import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

/// The notes on PostgreSQL (schema step 8, decision 0122), answering as `SQLiteStateStore`'s do, on the notes' own
/// connection (`withNotesConnection`).
extension PostgresStateStore: NoteStateStore {
    /// The first key of the advisory lock a save holds on its token name (the name's `hashtext` is the second). The
    /// two-key space does not overlap the one-key space of the schema's migration lock (727100).
    static let notesLockKey = 727_122

    /// Inserts a note for `tokenName`, unless `tokenName` has `maxNotes` notes already: then nothing is written and the
    /// answer is nil. Race-free across instances: the save takes a transaction-long advisory lock on the token name
    /// first, so saves of one token run one after another; the count and the insert are then one statement, whose
    /// snapshot is taken after the lock and so sees every save committed before it. Saves of different tokens do not
    /// wait for each other (unless their names' hashes meet). Ids come from the table's sequence: never given again.
    public func saveNote(tokenName: String, title: String?, text: String, maxNotes: Int = .max, at date: Date = Date()) throws -> StoredNote? {
        for value in [tokenName, title ?? "", text] where value.utf8.contains(0) {
            throw PostgresError(message: "the note holds the NUL character (U+0000), which PostgreSQL's text cannot store; remove it and save again",
                                context: "saving a note")
        }
        let created = date.roundedToMilliseconds
        let titleFolded = title.map(CaseFolding.folded), textFolded = CaseFolding.folded(text)
        let id: Int64? = try withNotesConnection { db in
            try db.transaction {
                try db.query("SELECT pg_advisory_xact_lock(\(Self.notesLockKey), hashtext($1))", [tokenName])
                let r = try db.query("""
                    INSERT INTO notes (token_name, title, body, created_at, title_folded, body_folded)
                    SELECT $1::text, $2::text, $3::text, $4::bigint, $6::text, $7::text
                    WHERE (SELECT count(*) FROM notes WHERE token_name = $1::text) < $5::bigint
                    RETURNING id
                    """, [tokenName, title, text, String(created.millisecondsSince1970), String(maxNotes), titleFolded, textFolded])
                return r.count == 0 ? nil : r.int64(0, 0)
            }
        }
        return id.map { StoredNote(id: $0, tokenName: tokenName, title: title, text: text, createdAt: created) }
    }

    /// `tokenName`'s notes whose title or text contains every one of `words` in any case, newest first, matched as on
    /// SQLite: the words folded as the notes were when saved (Unicode simple case folding in Swift, `CaseFolding`;
    /// schema step 9, decision 0124) and matched with `LIKE` against the folded copies, the word anywhere, `%` and `_`
    /// as themselves. Not `ILIKE` or `lower`, whose answers for letters beyond ASCII depend on the database's locale. A
    /// note saved by an instance from before step 9 (its copies NULL until a store folds it at open) is matched as
    /// before, ASCII case only.
    public func searchNotes(tokenName: String, words: [String], limit: Int) throws -> [StoredNote] {
        // A word with NUL cannot occur in a note here (a save refuses it), and libpq would cut the parameter at it.
        guard !words.contains(where: { $0.utf8.contains(0) }) else { return [] }
        var sql = "SELECT id, token_name, title, body, created_at FROM notes WHERE token_name = $1"
        var params: [String?] = [tokenName]
        for word in words {
            params.append("%" + Self.escapeLike(CaseFolding.folded(word)) + "%")
            let p = "$\(params.count)"
            sql += " AND (coalesce(title_folded, \(Self.asciiFolded("coalesce(title, '')"))) LIKE \(p) ESCAPE '!'"
                + " OR coalesce(body_folded, \(Self.asciiFolded("body"))) LIKE \(p) ESCAPE '!')"
        }
        params.append(String(limit))
        sql += " ORDER BY created_at DESC, id DESC LIMIT $\(params.count)"
        return try withNotesConnection { db in
            let r = try db.query(sql, params)
            return (0..<r.count).map { Self.note(r, $0) }
        }
    }

    /// `tokenName`'s newest notes.
    public func listNotes(tokenName: String, limit: Int) throws -> [StoredNote] {
        try withNotesConnection { db in
            let r = try db.query("SELECT id, token_name, title, body, created_at FROM notes WHERE token_name = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
                                 [tokenName, String(limit)])
            return (0..<r.count).map { Self.note(r, $0) }
        }
    }

    /// Deletes `tokenName`'s note `id`: false, and nothing deleted, when `tokenName` has no note with that id (unknown,
    /// or another token's: the two are not told apart).
    public func deleteNote(tokenName: String, id: Int64) throws -> Bool {
        try withNotesConnection { db in
            try db.query("DELETE FROM notes WHERE id = $1 AND token_name = $2", [String(id), tokenName]).affected > 0
        }
    }

    /// Deletes every note of `tokenName` and returns how many there were.
    public func deleteNotes(tokenName: String) throws -> Int {
        try withNotesConnection { db in
            try db.query("DELETE FROM notes WHERE token_name = $1", [tokenName]).affected
        }
    }

    /// How many notes each token name has, by name in byte order (as SQLite's `BINARY` collation sorts).
    public func noteCounts() throws -> [(tokenName: String, count: Int)] {
        let rows: [NoteCount] = try withNotesConnection { db in
            let r = try db.query("SELECT token_name, count(*) FROM notes GROUP BY token_name ORDER BY token_name COLLATE \"C\"")
            return (0..<r.count).map { NoteCount(tokenName: r.text($0, 0) ?? "", count: Int(r.int64($0, 1))) }
        }
        return rows.map { ($0.tokenName, $0.count) }
    }

    /// A row of `noteCounts` (a tuple is not `Sendable` across the connection's lock).
    private struct NoteCount: Sendable {
        var tokenName: String
        var count: Int
    }

    private static func note(_ r: PostgresRows, _ i: Int) -> StoredNote {
        StoredNote(id: r.int64(i, 0), tokenName: r.text(i, 1) ?? "", title: r.text(i, 2), text: r.text(i, 3) ?? "",
                   createdAt: Date(millisecondsSince1970: r.int64(i, 4)))
    }

    /// `column` with its ASCII capitals made small, and nothing else changed: how a note not yet folded is matched.
    private static func asciiFolded(_ column: String) -> String {
        "translate(\(column), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
    }

    /// Folds the notes saved before schema step 9 or by an instance from before it (their `body_folded` is NULL), a
    /// batch at a time; at open, after the migration. Instances opening together may fold the same rows: they write the
    /// same values. A note whose text changed meanwhile cannot be: notes are never edited. Returns how many were folded.
    @discardableResult
    static func foldUnfoldedNotes(_ db: PostgresConnection, batch: Int = 500) throws -> Int {
        var total = 0
        while true {
            let r = try db.query("SELECT id, title, body FROM notes WHERE body_folded IS NULL ORDER BY id LIMIT $1", [String(batch)])
            for i in 0..<r.count {
                try db.query("UPDATE notes SET title_folded = $1, body_folded = $2 WHERE id = $3",
                             [r.text(i, 1).map(CaseFolding.folded), CaseFolding.folded(r.text(i, 2) ?? ""), String(r.int64(i, 0))])
            }
            total += r.count
            if r.count < batch { return total }
        }
    }

    /// `word` as a `LIKE` pattern's literal text, with `!` as the escape character (no backslash: its meaning in a
    /// string constant depends on `standard_conforming_strings`).
    /// By scalar, not by `Character`: a `!` followed by a combining mark is one `Character` but two scalars to the server.
    static func escapeLike(_ word: String) -> String {
        var out = String.UnicodeScalarView()
        for s in word.unicodeScalars {
            if s == "%" || s == "_" || s == "!" { out.append("!") }
            out.append(s)
        }
        return String(out)
    }
}
