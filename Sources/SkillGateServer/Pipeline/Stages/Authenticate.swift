import SkillGateCore
import SkillGateHTTP
import SkillGateState

/// The caller of a request, after authentication.
struct AuthenticatedClient: Sendable {
    var name: String
    /// The token's id (the ledger's and the limit counters' key).
    var tokenId: String
    /// The token's own limits (unset ones fall back to the config's `token_limits`).
    var limits: TokenLimits
    var scope: AccessScope
    /// Asks again, while the answer runs, whether the token is still valid.
    var recheck: TokenRecheck
    /// An admin token: may use the admin API and the console.
    var admin = false
    /// May use the chat and agent surfaces (every ordinary token; an admin token created with `--chat`).
    var chat = true

    /// Throws the 403 of an admin token without chat access on a chat, agent, models or limits endpoint.
    func requireChat() throws(GatewayError) {
        guard chat else {
            throw GatewayError(domain: .policy, kind: .permission, status: 403,
                               message: "token \"\(name)\" is an admin token for the console and the admin API only; to chat with it too, create one with `skillgate tokens create --name NAME --admin --chat`, or use an ordinary token")
        }
    }

    /// Throws the 403 of a token that is not an admin token on an admin route.
    func requireAdmin() throws(GatewayError) {
        guard admin else {
            throw GatewayError(domain: .policy, kind: .permission, status: 403,
                               message: "token \"\(name)\" is not an admin token; the admin API and the console need one: `skillgate tokens create --name NAME --admin`")
        }
    }
}

/// The authenticate stage: the caller's SkillGate token, checked against the token store.
struct AuthenticateStage: Sendable {
    let tokens: TokenService

    /// The token of `Bearer <token>` (scheme case-insensitive). The scheme is compared byte by byte, without
    /// allocating or walking characters (this runs on every request).
    static func bearerToken(_ value: String) -> String? {
        let utf8 = value.utf8
        guard utf8.count > 7 else { return nil }
        var index = utf8.startIndex
        for expected in "bearer ".utf8 {
            let byte = utf8[index]
            guard (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected else { return nil }
            index = utf8.index(after: index)
        }
        // The scheme is ASCII, so `index` starts a character.
        return String(value[index...]).trimmingSpacesAndTabs()
    }

    /// Authenticates `request`. A request the head gate admitted (`AdmittedCaller`) is not authenticated twice: its
    /// token is looked up again by hash (the cached lookup, so a revocation since the head is seen), and the caller
    /// is the token's record as it is now.
    func authenticate(_ request: HTTPServerRequest) throws(GatewayError) -> AuthenticatedClient {
        guard let admitted = request.admission as? AdmittedCaller else { return try authenticate(request.headers) }
        return client(try checked { () throws(TokenStoreUnavailable) in try tokens.checkedRegrant(admitted.grant) })
    }

    /// Authenticates `Authorization: Bearer <token>` or `x-api-key: <token>` (what the Anthropic SDK sends).
    func authenticate(_ headers: HTTPHeaders) throws(GatewayError) -> AuthenticatedClient {
        client(try grant(headers))
    }

    /// The grant of the token in `headers` (`authenticate`), for the head gate to hand on. Reads the token store
    /// when the token is not cached.
    func grant(_ headers: HTTPHeaders) throws(GatewayError) -> TokenGrant {
        let token = try presentedToken(headers)
        return try checked { () throws(TokenStoreUnavailable) in try tokens.checkedGrant(for: token) }
    }

    /// What the token service's cache tells about the token in `headers` without reading the store (for the head gate
    /// on the event loop): granted, refused (`invalidToken`), or not cached (then `grant`, off the loop). Throws the
    /// 401 of a request without a token.
    func cachedGrant(_ headers: HTTPHeaders) throws(GatewayError) -> CachedTokenGrant {
        tokens.cachedGrant(for: try presentedToken(headers))
    }

    /// `Authorization: Bearer <token>`, else `x-api-key: <token>`; a 401 when neither holds one. Credentials given
    /// twice (two `Authorization` or two `x-api-key` fields, or both fields with different tokens) are a 400: a proxy
    /// in front may read the other one than the gateway, so neither is guessed at. One pass over the fields.
    private func presentedToken(_ headers: HTTPHeaders) throws(GatewayError) -> String {
        var authorization: String?, apiKey: String?
        for field in headers {
            if HTTPHeaders.sameName(field.name, "authorization") {
                guard authorization == nil else { throw Self.credentialsTwice("two `Authorization` fields") }
                authorization = field.value
            } else if HTTPHeaders.sameName(field.name, "x-api-key") {
                guard apiKey == nil else { throw Self.credentialsTwice("two `x-api-key` fields") }
                apiKey = field.value
            }
        }
        let bearer = authorization.flatMap(Self.bearerToken)
        if let bearer, !bearer.isEmpty, let apiKey, !apiKey.isEmpty, apiKey != bearer {
            throw Self.credentialsTwice("`Authorization` and `x-api-key` with different tokens")
        }
        if let bearer, !bearer.isEmpty { return bearer }
        if let apiKey, !apiKey.isEmpty { return apiKey }
        if let authorization, bearer == nil, !authorization.isEmpty {
            // The scheme is named only when it is one (a short word of letters before the credentials): a value
            // without one may be a key sent bare, and no part of a credential is echoed back or logged.
            let word = authorization.prefix(while: { $0 != " " && $0 != "\t" })
            let isScheme = word.count < authorization.count && (1...10).contains(word.count)
                && word.allSatisfy { $0.isASCII && $0.isLetter } && word.lowercased() != "bearer"
            throw GatewayError(domain: .policy, kind: .authentication, status: 401,
                               message: (isScheme ? "the `Authorization` field uses the \"\(word)\" scheme" : "the `Authorization` field has no `Bearer` scheme")
                                   + "; SkillGate takes `Authorization: Bearer <token>` or `x-api-key: <token>` with a SkillGate token (`skillgate tokens create --name NAME`)")
        }
        throw GatewayError(domain: .policy, kind: .authentication, status: 401,
                           message: "missing SkillGate token: send `Authorization: Bearer <token>` or `x-api-key: <token>`; the operator creates tokens with `skillgate tokens create --name NAME`")
    }

    /// The 400 of a request that gives its credentials twice (`what`).
    private static func credentialsTwice(_ what: String) -> GatewayError {
        GatewayError.invalidRequest("the request has \(what); send the SkillGate token once, in `Authorization: Bearer <token>` or in `x-api-key: <token>`")
    }

    /// The 401 of a token the store does not accept (unknown, malformed or revoked).
    static let invalidToken = GatewayError(domain: .policy, kind: .authentication, status: 401,
                                           message: "invalid or revoked SkillGate token; ask the operator for a valid token (`skillgate tokens list` shows the active ones)")

    /// The grant `lookup` finds; 401 when there is none, 503 when the token store cannot be read.
    private func checked(_ lookup: () throws(TokenStoreUnavailable) -> TokenGrant?) throws(GatewayError) -> TokenGrant {
        let found: TokenGrant?
        do {
            found = try lookup()
        } catch {
            throw GatewayError(domain: .gateway, kind: .upstreamUnavailable, status: 503, message: "SkillGate cannot reach its state database to check the token; retry in a few seconds (the operator should check the database behind state.postgres_url or state_dir)", retryAfter: 2)
        }
        guard let grant = found else { throw Self.invalidToken }
        return grant
    }

    private func client(_ grant: TokenGrant) -> AuthenticatedClient {
        let record = grant.token
        let scope = AccessScope(scenarios: record.scenarios, models: record.models, defaultScenario: record.defaultScenario)
        return AuthenticatedClient(name: record.name, tokenId: record.id, limits: record.limits, scope: scope,
                                   recheck: TokenRecheck(tokens: tokens, grant: grant), admin: record.admin, chat: record.chat)
    }
}

/// The caller the head gate authenticated (`HeadGate`), handed to the pipeline with its request
/// (`HTTPServerRequest.admission`) so the token is not hashed and noted twice, and the endpoint its path was mapped
/// to, so the path is not mapped twice.
final class AdmittedCaller: HTTPAdmission {
    let grant: TokenGrant
    let endpoint: Endpoint
    init(grant: TokenGrant, endpoint: Endpoint) {
        self.grant = grant
        self.endpoint = endpoint
    }
}
