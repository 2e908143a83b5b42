import FoundationEssentials
import Glibc
import Dispatch

extension PostgresStateStore: ResponseStore {
    public func saveResponses(_ responses: [StoredResponse], now: Date) throws {
        guard !responses.isEmpty else { return }
        try withConnection { db in
            try db.transaction {
                for r in responses {
                    _ = try db.query("""
                        INSERT INTO stored_responses (id, token_id, created_at, expires_at, conversation) VALUES ($1, $2, $3, $4, $5)
                        ON CONFLICT (id) DO UPDATE SET token_id = $2, created_at = $3, expires_at = $4, conversation = $5
                        """, [r.id, r.tokenId, String(r.createdAt.millisecondsSince1970), String(r.expiresAt.millisecondsSince1970), String(decoding: r.conversation, as: UTF8.self)])
                }
                _ = try db.query("DELETE FROM stored_responses WHERE expires_at <= $1", [String(now.millisecondsSince1970)])
            }
        }
    }

    public func storedResponse(id: String, tokenId: String, now: Date) throws -> StoredResponse? {
        try withConnection { db in
            let r = try db.query("SELECT id, token_id, created_at, expires_at, conversation FROM stored_responses WHERE id = $1 AND token_id = $2 AND expires_at > $3",
                                 [id, tokenId, String(now.millisecondsSince1970)])
            guard r.count > 0 else { return nil }
            return StoredResponse(id: r.text(0, 0) ?? "", tokenId: r.text(0, 1) ?? "", createdAt: Date(millisecondsSince1970: r.int64(0, 2)),
                                  expiresAt: Date(millisecondsSince1970: r.int64(0, 3)), conversation: Array((r.text(0, 4) ?? "").utf8))
        }
    }

    public func deleteResponse(id: String, tokenId: String) throws -> Bool {
        try withConnection { db in
            try db.query("DELETE FROM stored_responses WHERE id = $1 AND token_id = $2", [id, tokenId]).affected > 0
        }
    }
}
