import FoundationEssentials
import Glibc
import Dispatch

/// A SkillGate client token as stored: everything but the token text, which is shown once at
/// creation and kept only as a SHA-256 hash.
public struct ClientToken: Sendable, Hashable, Identifiable {
    /// Stable id (`tok_` + 16 hex digits), used in usage records and logs.
    public var id: String
    /// Unique among active tokens (`ios-app`, `ci`); revoked tokens keep theirs.
    public var name: String
    /// Scenarios the token may use; empty means all.
    public var scenarios: [String]
    /// Models or tiers (`light`, `strong`) the token may use; empty means all.
    public var models: [String]
    /// The scenario for requests that name none.
    public var defaultScenario: String?
    public var createdAt: Date
    /// When the token last authenticated (recorded at most about once a minute).
    public var lastUsedAt: Date?
    /// When the token was revoked; a revoked token never authenticates again.
    public var revokedAt: Date?
    /// The token's own limits and budgets (`skillgate tokens create/update --rpm ...`); unset ones fall back
    /// to the config's `token_limits`.
    public var limits: TokenLimits
    /// An admin token (`skillgate tokens create --admin`): it may use the admin API (`/admin/api/...`) and the console.
    public var admin: Bool
    /// Whether the token may use the chat and agent surfaces (`/v1/...`). Every ordinary token may; an admin token only
    /// when it was also created for chat (`--admin --chat`).
    public var chat: Bool

    public init(id: String, name: String, scenarios: [String] = [], models: [String] = [], defaultScenario: String? = nil,
                createdAt: Date, lastUsedAt: Date? = nil, revokedAt: Date? = nil, limits: TokenLimits = TokenLimits(),
                admin: Bool = false, chat: Bool = true) {
        self.limits = limits
        self.admin = admin
        self.chat = chat
        self.id = id
        self.name = name
        self.scenarios = scenarios
        self.models = models
        self.defaultScenario = defaultScenario
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }

    /// Whether the token has been revoked.
    public var isRevoked: Bool { revokedAt != nil }

    /// Whether the token may use `scenario`.
    public func allows(scenario: String) -> Bool {
        scenarios.isEmpty || scenarios.contains(scenario)
    }

    /// Whether the token may use `model`, or the model's `tier`.
    public func allows(model: String, tier: String? = nil) -> Bool {
        models.isEmpty || models.contains(model) || tier.map(models.contains) == true
    }
}

/// A token record with its stored hash, as a `StateStore` returns it for authentication.
public struct StoredClientToken: Sendable, Hashable {
    public var token: ClientToken
    /// SHA-256 of the token text, 64 lowercase hex digits.
    public var hash: String

    public init(token: ClientToken, hash: String) {
        self.token = token
        self.hash = hash
    }
}

/// An active token's stored hash and creation time, as `StateStore.activeTokenHashes(createdSince:limit:)` lists them.
public struct CreatedTokenHash: Sendable, Hashable {
    /// SHA-256 of the token text, 64 lowercase hex digits.
    public var hash: String
    /// When the token was created, by the clock of whoever created it.
    public var createdAt: Date

    public init(hash: String, createdAt: Date) {
        self.hash = hash
        self.createdAt = createdAt
    }
}

extension Date {
    /// Whole milliseconds since 1970, the precision SkillGate stores.
    var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    /// The date `milliseconds` after 1970.
    init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// This date rounded to the stored precision, so a record compares equal after a round trip.
    var roundedToMilliseconds: Date { Date(millisecondsSince1970: millisecondsSince1970) }
}
