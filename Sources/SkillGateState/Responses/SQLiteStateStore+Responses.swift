import FoundationEssentials
import Glibc
import Dispatch

extension SQLiteStateStore: ResponseStore {
    /// Inserts the batch, then removes what expired: rows are appended in the order answers are created (and kept
    /// for the same retention), so the expired rows are the oldest rowids, deleted as a range up to the first row
    /// still valid (a short scan from the table's start, no index on `expires_at`). A row that expires before an
    /// older one (the retention was shortened) waits for that one; reads check `expires_at` anyway. Last, each token of
    /// the batch over `maxBytesPerToken` loses its oldest rows (`dropOldest`). A replaced row is deleted first, so
    /// the totals' trigger sees it go, and inserted at the end.
    @discardableResult
    public func saveResponses(_ responses: [StoredResponse], now: Date, maxBytesPerToken: Int) throws -> [String: Int] {
        guard !responses.isEmpty else { return [:] }
        return try withWriteTransaction { db in
            let remove = try db.statement("DELETE FROM stored_responses WHERE id = ?")
            let insert = try db.statement("INSERT INTO stored_responses (id, token_id, created_at, expires_at, conversation, bytes, response_object, input_end) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            for r in responses {
                try remove.runInPlace([.text(r.id)])
                try insert.runInPlace([.text(r.id), .text(r.tokenId), .integer(r.createdAt.millisecondsSince1970),
                                       .integer(r.expiresAt.millisecondsSince1970), .utf8(r.conversation), .integer(Int64(r.storedBytes)),
                                       r.object.map { .utf8($0) } ?? .null, r.inputEnd.map { .integer(Int64($0)) } ?? .null])
            }
            try db.statement("""
                DELETE FROM stored_responses WHERE rowid < coalesce(
                    (SELECT rowid FROM stored_responses WHERE expires_at > ? ORDER BY rowid LIMIT 1), 9223372036854775807)
                """).run([.integer(now.millisecondsSince1970)])
            var dropped: [String: Int] = [:]
            for token in Set(responses.map(\.tokenId)) {
                let n = try dropOldest(of: token, above: maxBytesPerToken, in: db)
                if n > 0 { dropped[token] = n }
            }
            return dropped
        }
    }

    /// Removes the oldest stored responses of `token` until its total is at most `bound` bytes; returns how many.
    /// Reads the running total (one row), and only when it is over, the token's rows oldest first (its index is in
    /// rowid order) until they cover the excess, so a token within its bound costs one lookup per save.
    private func dropOldest(of token: String, above bound: Int, in db: SQLiteConnection) throws -> Int {
        let total = try db.statement("SELECT bytes FROM stored_response_totals WHERE token_id = ?").firstRow([.text(token)]) { $0.int64(0) } ?? 0
        guard total > Int64(bound) else { return 0 }
        let excess = total - Int64(bound)
        let oldest = try db.statement("SELECT rowid, bytes FROM stored_responses WHERE token_id = ? ORDER BY rowid")
        try oldest.bind([.text(token)])
        var covered: Int64 = 0, last: Int64?
        while covered < excess, try oldest.step() {
            last = oldest.int64(0)
            covered += oldest.int64(1)
        }
        oldest.reset()
        guard let last else { return 0 }
        return try db.statement("DELETE FROM stored_responses WHERE token_id = ? AND rowid <= ?").run([.text(token), .integer(last)])
    }

    public func storedResponse(id: String, tokenId: String, now: Date) throws -> StoredResponse? {
        try withConnection { db in
            try db.statement("SELECT id, token_id, created_at, expires_at, conversation, response_object, input_end FROM stored_responses WHERE id = ? AND token_id = ? AND expires_at > ?")
                .firstRow([.text(id), .text(tokenId), .integer(now.millisecondsSince1970)]) { row in
                    StoredResponse(id: row.text(0), tokenId: row.text(1), createdAt: Date(millisecondsSince1970: row.int64(2)),
                                   expiresAt: Date(millisecondsSince1970: row.int64(3)), conversation: row.utf8(4),
                                   object: row.isNull(5) ? nil : row.utf8(5), inputEnd: row.isNull(6) ? nil : Int(row.int64(6)))
                }
        }
    }

    public func storedResponseObject(id: String, tokenId: String, now: Date) throws -> StoredResponseObject {
        try withConnection { db in
            try db.statement("SELECT response_object FROM stored_responses WHERE id = ? AND token_id = ? AND expires_at > ?")
                .firstRow([.text(id), .text(tokenId), .integer(now.millisecondsSince1970)]) { row -> StoredResponseObject in
                    row.isNull(0) ? .keptWithoutObject : .found(row.utf8(0))
                } ?? .notFound
        }
    }

    public func deleteResponse(id: String, tokenId: String) throws -> Bool {
        try withWriteTransaction { db in
            try db.statement("DELETE FROM stored_responses WHERE id = ? AND token_id = ?").run([.text(id), .text(tokenId)]) > 0
        }
    }
}
