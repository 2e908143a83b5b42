import SkillGateKeys

/// Why a token operation was refused. Never shows token text: a name given that has a token's shape is not quoted.
public enum TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The token name breaks the naming rule.
    case invalidName(String)
    /// An active token already has this name.
    case duplicateName(String)
    /// No token has this name.
    case unknownToken(String)
    /// The token with this name is already revoked.
    case alreadyRevoked(String)
    /// The token with this name is revoked, so its limits cannot change.
    case revokedLimits(String)
    /// A scenario or model entry is empty or too long.
    case invalidScope(String)
    /// The default scenario is not among the allowed scenarios.
    case defaultScenarioNotAllowed(String)
    /// A limit or budget is unknown, of the wrong type, or negative (the text names it).
    case invalidLimit(String)

    /// Whether the request itself was malformed (a name, a scope, a default scenario or a limit that breaks the rules),
    /// rather than refused by the tokens' state (a name in use, unknown or revoked): the CLI's usage error, exit 2.
    public var isUsageError: Bool {
        switch self {
        case .invalidName, .invalidScope, .defaultScenarioNotAllowed, .invalidLimit: true
        case .duplicateName, .unknownToken, .alreadyRevoked, .revokedLimits: false
        }
    }

    public var description: String {
        if let name = nameGiven, Self.isTokenText(name) {
            return "a token's text (it starts with \(TokenFormat.prefix)) was given where a token's name belongs, so it is not repeated here; "
                + "token names never start with \(TokenFormat.prefix). `skillgate tokens list` shows the names; if that text was shown "
                + "where others can read it, revoke its token by name and create a new one"
        }
        switch self {
        case .invalidName(let name):
            return "invalid token name \"\(name)\": use 1 to 64 characters from A-Z, a-z, 0-9, '.', '_' and '-', starting with a letter or digit (like ios-app)"
        case .duplicateName(let name):
            return "an active token named \"\(name)\" already exists; revoke it first (skillgate tokens revoke \(name)) or pick another name"
        case .unknownToken(let name):
            return "there is no token named \"\(name)\"; `skillgate tokens list` shows the names"
        case .alreadyRevoked(let name):
            return "the token named \"\(name)\" is already revoked; nothing to do"
        case .revokedLimits(let name):
            return "the token named \"\(name)\" is revoked, so its limits cannot change; create a new token with the limits you want (skillgate tokens create --name NAME)"
        case .invalidScope(let problem):
            return "invalid token scope: \(problem); give scenario and model names of 1 to 128 characters without spaces"
        case .defaultScenarioNotAllowed(let scenario):
            return "the default scenario \"\(scenario)\" is not among the token's allowed scenarios; add it to the scenarios or pick one of them"
        case .invalidLimit(let problem):
            return "invalid limit: \(problem)"
        }
    }

    /// The token name this error would quote, if it quotes one.
    private var nameGiven: String? {
        switch self {
        case .invalidName(let name), .duplicateName(let name), .unknownToken(let name), .alreadyRevoked(let name), .revokedLimits(let name): name
        case .invalidScope, .defaultScenarioNotAllowed, .invalidLimit: nil
        }
    }

    /// Whether `name` has the shape of a token's text (it starts with the tokens' prefix): a token pasted where its name
    /// belongs (`skillgate tokens revoke sgk_…`), whole or cut short, that a message must not echo (decision 0153).
    static func isTokenText(_ name: String) -> Bool {
        name.utf8.starts(with: TokenFormat.prefix.utf8)
    }
}
