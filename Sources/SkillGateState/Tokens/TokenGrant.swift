import FoundationEssentials
import SkillGateKeys

/// The token store could not be read (a database that is down or unreachable).
public struct TokenStoreUnavailable: Error, Sendable, CustomStringConvertible {
    /// What the store said (never a token or a URL with a password).
    public let reason: String
    public var description: String { "the token store cannot be read: \(reason)" }
}

/// A token that authenticated, kept by its request to re-check it while the request runs
/// (`TokenService.standing(of:)`). Holds the record and the digest of the presented text, never the text.
public struct TokenGrant: Sendable, Hashable {
    /// The token's record as it was when the request was authenticated.
    public let token: ClientToken
    let digest: TokenDigest
    /// Until when the token service's cache vouches for this grant without asking the store again.
    let cachedUntil: Date
}

extension TokenGrant: CustomStringConvertible, CustomReflectable {
    /// The token's id and name; never the digest.
    public var description: String { "TokenGrant(\(token.id), name: \(token.name))" }
    /// A mirror without the digest.
    public var customMirror: Mirror { Mirror(self, children: ["token": token]) }
}

/// What the token service can say now about the token of a request under way (decision 0142).
public enum TokenStanding: Sendable, Equatable {
    /// The token is still accepted.
    case valid
    /// The token was revoked, has expired or was deleted: the answers it admitted must stop.
    case revoked
    /// Nothing is known: the store cannot be read and the cache no longer vouches for the token. An answer under way
    /// runs on (a database outage must not end every answer; new requests get the 503 of an unreadable store).
    case unknown
}

/// What `TokenService.cachedGrant` found without reading the store.
public enum CachedTokenGrant: Sendable {
    /// The cache holds the token and accepts it.
    case granted(TokenGrant)
    /// Not a token, or one the cache holds as revoked.
    case refused
    /// The cache has no fresh entry: only the store can tell (`checkedGrant`). `known`: the token is known to the
    /// store (it accepted it in this process, listed it as active at the start, or it was created here): a client back
    /// after a pause or a restart, not a token never seen.
    case notCached(known: Bool)
}
