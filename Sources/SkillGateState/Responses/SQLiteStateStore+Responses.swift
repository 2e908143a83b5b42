import FoundationEssentials
import Glibc
import Dispatch

extension SQLiteStateStore: ResponseStore {
    /// Inserts the batch, then removes what expired: rows are appended in the order answers are created (and kept
    /// for the same retention), so the expired rows are the oldest rowids, deleted as a range up to the first row
    /// still valid (a short scan from the table's start, no index on `expires_at`). A row that expires before an
    /// older one (the retention was shortened) waits for that one; reads check `expires_at` anyway.
    public func saveResponses(_ responses: [StoredResponse], now: Date) throws {
        guard !responses.isEmpty else { return }
        try withWriteTransaction { db in
            let insert = try db.statement("INSERT OR REPLACE INTO stored_responses (id, token_id, created_at, expires_at, conversation) VALUES (?, ?, ?, ?, ?)")
            for r in responses {
                try insert.runInPlace([.text(r.id), .text(r.tokenId), .integer(r.createdAt.millisecondsSince1970),
                                       .integer(r.expiresAt.millisecondsSince1970), .utf8(r.conversation)])
            }
            try db.statement("""
                DELETE FROM stored_responses WHERE rowid < coalesce(
                    (SELECT rowid FROM stored_responses WHERE expires_at > ? ORDER BY rowid LIMIT 1), 9223372036854775807)
                """).run([.integer(now.millisecondsSince1970)])
        }
    }

    public func storedResponse(id: String, tokenId: String, now: Date) throws -> StoredResponse? {
        try withConnection { db in
            try db.statement("SELECT id, token_id, created_at, expires_at, conversation FROM stored_responses WHERE id = ? AND token_id = ? AND expires_at > ?")
                .firstRow([.text(id), .text(tokenId), .integer(now.millisecondsSince1970)]) { row in
                    StoredResponse(id: row.text(0), tokenId: row.text(1), createdAt: Date(millisecondsSince1970: row.int64(2)),
                                   expiresAt: Date(millisecondsSince1970: row.int64(3)), conversation: row.utf8(4))
                }
        }
    }

    public func deleteResponse(id: String, tokenId: String) throws -> Bool {
        try withWriteTransaction { db in
            try db.statement("DELETE FROM stored_responses WHERE id = ? AND token_id = ?").run([.text(id), .text(tokenId)]) > 0
        }
    }
}
