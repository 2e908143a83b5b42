import FoundationEssentials
import Glibc
import Dispatch

extension PostgresStateStore: ResponseStore {
    /// As SQLite's: the batch, then what expired, then each token of the batch over `maxBytesPerToken` loses its oldest
    /// responses (by `created_at`, then id). The batch is written in token order, so two instances saving batches of
    /// the same tokens take the totals' row locks in the same order and never deadlock.
    @discardableResult
    public func saveResponses(_ responses: [StoredResponse], now: Date, maxBytesPerToken: Int) throws -> [String: Int] {
        guard !responses.isEmpty else { return [:] }
        let ordered = responses.sorted { ($0.tokenId, $0.id) < ($1.tokenId, $1.id) }
        return try withConnection { db in
            try db.transaction {
                for r in ordered {
                    _ = try db.query("""
                        INSERT INTO stored_responses (id, token_id, created_at, expires_at, conversation, bytes, response_object, input_end)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                        ON CONFLICT (id) DO UPDATE SET token_id = $2, created_at = $3, expires_at = $4, conversation = $5, bytes = $6,
                            response_object = $7, input_end = $8
                        """, [r.id, r.tokenId, String(r.createdAt.millisecondsSince1970), String(r.expiresAt.millisecondsSince1970),
                              String(decoding: r.conversation, as: UTF8.self), String(r.storedBytes),
                              r.object.map { String(decoding: $0, as: UTF8.self) }, r.inputEnd.map { String($0) }])
                }
                _ = try db.query("DELETE FROM stored_responses WHERE expires_at <= $1", [String(now.millisecondsSince1970)])
                var dropped: [String: Int] = [:]
                var seen = Set<String>()
                for r in ordered where seen.insert(r.tokenId).inserted {
                    let n = try Self.dropOldest(of: r.tokenId, above: maxBytesPerToken, in: db)
                    if n > 0 { dropped[r.tokenId] = n }
                }
                return dropped
            }
        }
    }

    /// Removes the oldest stored responses of `token` until its total is at most `bound` bytes; returns how many.
    /// Reads the running total, and only when it is over, the token's rows oldest first (by its index, a page at a
    /// time) until they cover the excess; then deletes up to the last of them in one statement.
    private static func dropOldest(of token: String, above bound: Int, in db: PostgresConnection) throws -> Int {
        let totals = try db.query("SELECT bytes FROM stored_response_totals WHERE token_id = $1", [token])
        let total = totals.count > 0 ? totals.int64(0, 0) : 0
        guard total > Int64(bound) else { return 0 }
        let excess = total - Int64(bound)
        var covered: Int64 = 0
        var last: (created: String, id: String)?
        while covered < excess {
            let page = try db.query("""
                SELECT created_at, id, bytes FROM stored_responses
                WHERE token_id = $1 AND ($2::bigint IS NULL OR (created_at, id) > ($2::bigint, $3))
                ORDER BY created_at, id LIMIT 256
                """, [token, last?.created, last?.id])
            guard page.count > 0 else { break }
            for i in 0..<page.count where covered < excess {
                last = (page.text(i, 0) ?? "0", page.text(i, 1) ?? "")
                covered += page.int64(i, 2)
            }
        }
        guard let last else { return 0 }
        return try db.query("DELETE FROM stored_responses WHERE token_id = $1 AND (created_at, id) <= ($2::bigint, $3)",
                            [token, last.created, last.id]).affected
    }

    public func storedResponse(id: String, tokenId: String, now: Date) throws -> StoredResponse? {
        try withConnection { db in
            let r = try db.query("SELECT id, token_id, created_at, expires_at, conversation, response_object, input_end FROM stored_responses WHERE id = $1 AND token_id = $2 AND expires_at > $3",
                                 [id, tokenId, String(now.millisecondsSince1970)])
            guard r.count > 0 else { return nil }
            return StoredResponse(id: r.text(0, 0) ?? "", tokenId: r.text(0, 1) ?? "", createdAt: Date(millisecondsSince1970: r.int64(0, 2)),
                                  expiresAt: Date(millisecondsSince1970: r.int64(0, 3)), conversation: Array((r.text(0, 4) ?? "").utf8),
                                  object: r.text(0, 5).map { Array($0.utf8) }, inputEnd: r.text(0, 6).flatMap { Int($0) })
        }
    }

    public func storedResponseObject(id: String, tokenId: String, now: Date) throws -> StoredResponseObject {
        try withConnection { db in
            let r = try db.query("SELECT response_object FROM stored_responses WHERE id = $1 AND token_id = $2 AND expires_at > $3",
                                 [id, tokenId, String(now.millisecondsSince1970)])
            guard r.count > 0 else { return .notFound }
            return r.text(0, 0).map { .found(Array($0.utf8)) } ?? .keptWithoutObject
        }
    }

    public func deleteResponse(id: String, tokenId: String) throws -> Bool {
        try withConnection { db in
            try db.query("DELETE FROM stored_responses WHERE id = $1 AND token_id = $2", [id, tokenId]).affected > 0
        }
    }
}
