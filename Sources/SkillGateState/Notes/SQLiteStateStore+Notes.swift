import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

extension SQLiteStateStore: NoteStateStore {
    /// Inserts a note for `tokenName`, unless `tokenName` has `maxNotes` notes already: then nothing is written and the
    /// answer is nil. The count and the insert are one statement in one write transaction, so saves racing each other
    /// cannot pass the bound together. Ids count up and are never given again, a deleted note's neither (schema step 12).
    public func saveNote(tokenName: String, title: String?, text: String, maxNotes: Int = .max, at date: Date = Date()) throws -> StoredNote? {
        let created = date.roundedToMilliseconds
        let titleFolded = title.map(CaseFolding.folded), textFolded = CaseFolding.folded(text)
        let id = try withWriteTransaction { db in
            try db.statement("""
                INSERT INTO notes (token_name, title, body, created_at, title_folded, body_folded)
                SELECT ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM notes WHERE token_name = ?) < ?
                RETURNING id
                """)
                .firstRow([.text(tokenName), .optionalText(title), .text(text), .integer(created.millisecondsSince1970),
                           .optionalText(titleFolded), .text(textFolded),
                           .text(tokenName), .int64(Int64(maxNotes))]) { $0.int64(0) }
        }
        return id.map { StoredNote(id: $0, tokenName: tokenName, title: title, text: text, createdAt: created) }
    }

    /// `tokenName`'s notes whose title or text contains every one of `words` in any case, newest first: the words are
    /// folded as the notes were when saved (Unicode simple case folding, `CaseFolding`; schema step 13, decision 0124)
    /// and matched with `LIKE` against the folded copies, so "über" finds "Über", "οδος" "ΟΔΟΣ" and "дом" "ДОМ", as on
    /// PostgreSQL. A note not folded yet (none, once the store has opened the file) is matched as before, ASCII case only.
    /// A word holding NUL finds nothing, as on PostgreSQL: SQLite's `LIKE` reads a pattern only up to its first NUL,
    /// so "\u{0}" matched every note and "bread\u{0}x" every text ending in "bread".
    public func searchNotes(tokenName: String, words: [String], limit: Int) throws -> [StoredNote] {
        guard !words.contains(where: { $0.utf8.contains(0) }) else { return [] }
        var sql = "SELECT id, token_name, title, body, created_at FROM notes WHERE token_name = ?"
        var values: [SQLiteValue] = [.text(tokenName)]
        for word in words {
            sql += " AND (coalesce(title_folded, title, '') LIKE ? ESCAPE '\\' OR coalesce(body_folded, body) LIKE ? ESCAPE '\\')"
            let pattern = "%" + Self.escapeLike(CaseFolding.folded(word)) + "%"
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

    /// Folds the notes saved before schema step 13 (their `body_folded` is NULL), a batch at a time, each batch in a
    /// write transaction; at open, after the migration. Returns how many were folded. The partial index
    /// `notes_unfolded` makes this a look at an empty index once every note is folded.
    @discardableResult
    static func foldUnfoldedNotes(_ db: SQLiteConnection, batch: Int = 500) throws -> Int {
        // Read first: with nothing to fold (every open but the first after step 13), no write lock is taken.
        guard try db.statement("SELECT 1 FROM notes WHERE body_folded IS NULL LIMIT 1").firstRow([], { _ in true }) == true else { return 0 }
        var total = 0
        while true {
            let done = try db.transaction { () throws -> Int in
                let rows = try db.statement("SELECT id, title, body FROM notes WHERE body_folded IS NULL ORDER BY id LIMIT ?")
                    .rows([.int(batch)]) { (id: $0.int64(0), title: $0.optionalText(1), body: $0.text(2)) }
                let update = try db.statement("UPDATE notes SET title_folded = ?, body_folded = ? WHERE id = ?")
                for row in rows {
                    _ = try update.run([.optionalText(row.title.map(CaseFolding.folded)), .text(CaseFolding.folded(row.body)), .int64(row.id)])
                }
                return rows.count
            }
            total += done
            if done < batch { return total }
        }
    }

    private static func note(_ row: SQLiteStatement) -> StoredNote {
        StoredNote(id: row.int64(0), tokenName: row.text(1), title: row.optionalText(2), text: row.text(3),
                   createdAt: Date(millisecondsSince1970: row.int64(4)))
    }

    /// `word` as a `LIKE` pattern's literal text, with `\` as the escape character. By scalar, not by `Character` (as
    /// PostgreSQL's store does): a `%` or `_` followed by a combining mark is one `Character`, which is not equal to
    /// "%", but two scalars to SQLite, whose first was left a wildcard ("_\u{301}" matched every accented letter).
    private static func escapeLike(_ word: String) -> String {
        var out = String.UnicodeScalarView()
        for s in word.unicodeScalars {
            if s == "%" || s == "_" || s == "\\" { out.append("\\") }
            out.append(s)
        }
        return String(out)
    }
}
