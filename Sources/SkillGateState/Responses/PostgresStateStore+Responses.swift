import FoundationEssentials
import Glibc
import Dispatch

extension PostgresStateStore: ResponseStore {
    public func saveResponse(_ response: StoredResponse, now: Date) throws {
        try withConnection { db in
            try db.transaction {
                _ = try db.query("""
                    INSERT INTO stored_responses (id, token_id, created_at, expires_at, conversation) VALUES ($1, $2, $3, $4, $5)
                    ON CONFLICT (id) DO UPDATE SET token_id = $2, created_at = $3, expires_at = $4, conversation = $5
                    """, [response.id, response.tokenId, String(response.createdAt.millisecondsSince1970),
                          String(response.expiresAt.millisecondsSince1970), response.conversation])
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
                                  expiresAt: Date(millisecondsSince1970: r.int64(0, 3)), conversation: r.text(0, 4) ?? "")
        }
    }
}
