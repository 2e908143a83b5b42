import FoundationEssentials
import Glibc
import Dispatch

extension SQLiteStateStore: NoteStateStore {
    /// Inserts a note for `tokenName`, unless `tokenName` has `maxNotes` notes already: then nothing is written and the
    /// answer is nil. The count and the insert are one statement in one write transaction, so saves racing each other
    /// cannot pass the bound together. Ids count up and are never given again, a deleted note's neither (schema step 12).
    public func saveNote(tokenName: String, title: String?, text: String, maxNotes: Int = .max, at date: Date = Date()) throws -> StoredNote? {
        let created = date.roundedToMilliseconds
        let id = try withWriteTransaction { db in
            try db.statement("""
                INSERT INTO notes (token_name, title, body, created_at)
                SELECT ?, ?, ?, ? WHERE (SELECT count(*) FROM notes WHERE token_name = ?) < ?
                RETURNING id
                """)
                .firstRow([.text(tokenName), .optionalText(title), .text(text), .integer(created.millisecondsSince1970),
                           .text(tokenName), .int64(Int64(maxNotes))]) { $0.int64(0) }
        }
        return id.map { StoredNote(id: $0, tokenName: tokenName, title: title, text: text, createdAt: created) }
    }

    /// `tokenName`'s notes whose title or text contains every one of `words` (case-insensitive for ASCII), newest first.
    /// SQLite's `LIKE` folds the case of ASCII letters only: "Ä" does not find "ä" (PostgreSQL's store does the same).
    public func searchNotes(tokenName: String, words: [String], limit: Int) throws -> [StoredNote] {
        var sql = "SELECT id, token_name, title, body, created_at FROM notes WHERE token_name = ?"
        var values: [SQLiteValue] = [.text(tokenName)]
        for word in words {
            sql += " AND (coalesce(title, '') LIKE ? ESCAPE '\\' OR body LIKE ? ESCAPE '\\')"
            let pattern = "%" + Self.escapeLike(word) + "%"
            values += [.text(pattern), .text(pattern)]
        }
        sql += " ORDER BY created_at DESC, id DESC LIMIT ?"
        values.append(.int(limit))
        return try withConnection { db in try db.prepare(sql).rows(values, Self.note) }
    }

    /// `tokenName`'s newest notes.
    public func listNotes(tokenName: String, limit: Int) throws -> [StoredNote] {
        try withConnection { db in
            try db.statement("SELECT id, token_name, title, body, created_at FROM notes WHERE token_name = ? ORDER BY created_at DESC, id DESC LIMIT ?")
                .rows([.text(tokenName), .int(limit)], Self.note)
        }
    }

    /// Deletes `tokenName`'s note `id`: false, and nothing deleted, when `tokenName` has no note with that id (unknown,
    /// or another token's: the two are not told apart).
    public func deleteNote(tokenName: String, id: Int64) throws -> Bool {
        try withWriteTransaction { db in
            try db.statement("DELETE FROM notes WHERE id = ? AND token_name = ?").run([.int64(id), .text(tokenName)]) > 0
        }
    }

    /// Deletes every note of `tokenName` (`skillgate notes delete --all`, a user's "delete my data") and returns how
    /// many there were.
    public func deleteNotes(tokenName: String) throws -> Int {
        try withWriteTransaction { db in
            try db.statement("DELETE FROM notes WHERE token_name = ?").run([.text(tokenName)])
        }
    }

    /// How many notes each token name has, by name: every owner of a note, whether or not a token of that name is
    /// still active (notes outlive their token).
    public func noteCounts() throws -> [(tokenName: String, count: Int)] {
        try withConnection { db in
            try db.statement("SELECT token_name, count(*) FROM notes GROUP BY token_name ORDER BY token_name")
                .rows([]) { (tokenName: $0.text(0), count: Int($0.int64(1))) }
        }
    }

    private static func note(_ row: SQLiteStatement) -> StoredNote {
        StoredNote(id: row.int64(0), tokenName: row.text(1), title: row.optionalText(2), text: row.text(3),
                   createdAt: Date(millisecondsSince1970: row.int64(4)))
    }

    private static func escapeLike(_ word: String) -> String {
        var out = ""
        for c in word {
            if c == "%" || c == "_" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
