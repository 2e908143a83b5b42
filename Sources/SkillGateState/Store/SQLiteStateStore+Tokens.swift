import CSQLite
import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

extension SQLiteStateStore {
    private static let tokenColumns =
        "id, name, scenarios, models, default_scenario, created_at, last_used_at, revoked_at, token_hash, limits, admin, chat"

    public func insertToken(_ token: ClientToken, hash: String) throws {
        do {
            try withWriteTransaction { db in
                try db.statement("""
                    INSERT INTO client_tokens (id, name, token_hash, scenarios, models, default_scenario, created_at, last_used_at, revoked_at, limits, admin, chat)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).run([
                        .text(token.id), .text(token.name), .text(hash), .text(Self.encodeList(token.scenarios)),
                        .text(Self.encodeList(token.models)), .optionalText(token.defaultScenario),
                        .integer(token.createdAt.millisecondsSince1970), .int64(token.lastUsedAt?.millisecondsSince1970),
                        .int64(token.revokedAt?.millisecondsSince1970), .text(token.limits.json().serialized()),
                        .integer(token.admin ? 1 : 0), .integer(token.chat ? 1 : 0),
                    ])
            }
        } catch let error as SQLiteError where error.isConstraintViolation && error.message.contains("client_tokens.name") {
            throw TokenError.duplicateName(token.name)
        }
    }

    public func token(hash: String) throws -> StoredClientToken? {
        try withConnection { db in
            try db.statement("SELECT \(Self.tokenColumns) FROM client_tokens WHERE token_hash = ?")
                .firstRow([.text(hash)]) { row in StoredClientToken(token: Self.token(from: row), hash: row.text(8)) }
        }
    }

    public func tokens() throws -> [ClientToken] {
        try withConnection { db in
            try db.statement("SELECT \(Self.tokenColumns) FROM client_tokens ORDER BY created_at, rowid").rows { Self.token(from: $0) }
        }
    }

    public func activeTokenHashes(limit: Int) throws -> [String] {
        try withConnection { db in
            try db.statement("SELECT token_hash FROM client_tokens WHERE revoked_at IS NULL ORDER BY last_used_at DESC NULLS LAST LIMIT ?").rows([.int(limit)]) { $0.text(0) }
        }
    }

    public func activeTokenHashes(createdSince since: Date, limit: Int) throws -> [CreatedTokenHash] {
        try withConnection { db in
            try db.statement("SELECT token_hash, created_at FROM client_tokens WHERE created_at >= ? AND revoked_at IS NULL ORDER BY created_at LIMIT ?")
                .rows([.integer(since.millisecondsSince1970), .int(limit)]) {
                    CreatedTokenHash(hash: $0.text(0), createdAt: Date(millisecondsSince1970: $0.int64(1)))
                }
        }
    }

    public func revokeToken(named name: String, at date: Date) throws -> ClientToken? {
        try withWriteTransaction { db in
            guard var token = try db.statement("SELECT \(Self.tokenColumns) FROM client_tokens WHERE name = ? AND revoked_at IS NULL")
                .firstRow([.text(name)], { Self.token(from: $0) }) else { return nil }
            token.revokedAt = date
            try db.statement("UPDATE client_tokens SET revoked_at = ? WHERE id = ?")
                .run([.integer(date.millisecondsSince1970), .text(token.id)])
            return token
        }
    }

    public func updateTokenLimits(named name: String, _ limits: TokenLimits) throws -> ClientToken? {
        try withWriteTransaction { db in
            guard var token = try db.statement("SELECT \(Self.tokenColumns) FROM client_tokens WHERE name = ? AND revoked_at IS NULL")
                .firstRow([.text(name)], { Self.token(from: $0) }) else { return nil }
            token.limits = limits
            try db.statement("UPDATE client_tokens SET limits = ? WHERE id = ?").run([.text(limits.json().serialized()), .text(token.id)])
            return token
        }
    }

    public func markTokensUsed(_ uses: [String: Date]) throws {
        guard !uses.isEmpty else { return }
        try withWriteTransaction { db in
            let update = try db.statement(
                "UPDATE client_tokens SET last_used_at = max(coalesce(last_used_at, 0), ?) WHERE id = ?")
            for (id, date) in uses { try update.run([.integer(date.millisecondsSince1970), .text(id)]) }
        }
    }

    private static func token(from row: SQLiteStatement) -> ClientToken {
        ClientToken(
            id: row.text(0), name: row.text(1), scenarios: decodeList(row.text(2)), models: decodeList(row.text(3)),
            defaultScenario: row.optionalText(4), createdAt: Date(millisecondsSince1970: row.int64(5)),
            lastUsedAt: row.optionalInt64(6).map(Date.init(millisecondsSince1970:)),
            revokedAt: row.optionalInt64(7).map(Date.init(millisecondsSince1970:)),
            limits: decodeLimits(row.text(9)), admin: row.int64(10) != 0, chat: row.int64(11) != 0)
    }

    /// Lists are stored as JSON arrays of strings (`json_each` can query them; PostgreSQL uses text[]).
    static func encodeList(_ items: [String]) -> String {
        JSONValue.array(items.map(JSONValue.string)).serialized()
    }

    /// A token's stored limits (`{}` or unreadable: none).
    static func decodeLimits(_ text: String) -> TokenLimits {
        (try? JSONValue.parse(text)).flatMap { try? TokenLimits(json: $0, where: "stored limits", holdingBudgets: true) } ?? TokenLimits()
    }

    static func decodeList(_ text: String) -> [String] {
        ((try? JSONValue.parse(text))?.arrayValue ?? []).compactMap(\.stringValue)
    }
}
