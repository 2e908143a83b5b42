import SkillGateCore
import SkillGateHTTP
import SkillGateKeys

/// The caller of a request, after authentication.
struct AuthenticatedClient: Sendable {
    var name: String
    var scope: AccessScope
}

extension GatewayServices {
    /// Authenticates `Authorization: Bearer <token>` or `x-api-key: <token>` (what the Anthropic SDK sends).
    func authenticate(_ headers: HTTPHeaders) throws(GatewayError) -> AuthenticatedClient {
        var presented: String?
        if let auth = headers["authorization"] {
            let parts = auth.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { presented = String(parts[1]).trimmingCharacters(in: .whitespaces) }
        }
        if presented == nil || presented?.isEmpty == true { presented = headers["x-api-key"] }
        guard let token = presented, !token.isEmpty else {
            throw GatewayError(domain: .policy, kind: .authentication, status: 401,
                               message: "missing SkillGate token: send `Authorization: Bearer <token>` or `x-api-key: <token>`; the operator creates tokens with `skillgate tokens create --name NAME`")
        }
        guard let record = tokens.authenticate(token) else {
            throw GatewayError(domain: .policy, kind: .authentication, status: 401,
                               message: "invalid or revoked SkillGate token; ask the operator for a valid token (`skillgate tokens list` shows the active ones)")
        }
        return AuthenticatedClient(name: record.name, scope: AccessScope(scenarios: record.scenarios, models: record.models))
    }
}
