import FoundationEssentials
import Glibc
import Dispatch

extension SQLiteStateStore: ResponseStore {
    public func saveResponse(_ response: StoredResponse, now: Date) throws {
        try withConnection { db in
            try db.statement("INSERT OR REPLACE INTO stored_responses (id, token_id, created_at, expires_at, conversation) VALUES (?, ?, ?, ?, ?)")
                .run([.text(response.id), .text(response.tokenId), .integer(response.createdAt.millisecondsSince1970),
                      .integer(response.expiresAt.millisecondsSince1970), .text(response.conversation)])
            try db.statement("DELETE FROM stored_responses WHERE expires_at <= ?").run([.integer(now.millisecondsSince1970)])
        }
    }

    public func storedResponse(id: String, tokenId: String, now: Date) throws -> StoredResponse? {
        try withConnection { db in
            try db.statement("SELECT id, token_id, created_at, expires_at, conversation FROM stored_responses WHERE id = ? AND token_id = ? AND expires_at > ?")
                .firstRow([.text(id), .text(tokenId), .integer(now.millisecondsSince1970)]) { row in
                    StoredResponse(id: row.text(0), tokenId: row.text(1), createdAt: Date(millisecondsSince1970: row.int64(2)),
                                   expiresAt: Date(millisecondsSince1970: row.int64(3)), conversation: row.text(4))
                }
        }
    }
}
