import SkillGateKeys

/// The rules for token records (as opposed to `TokenFormat`, the rules for token text): the id
/// format, and which names and scopes `TokenService` accepts.
extension ClientToken {
    /// A new token id: `tok_` + 16 hex digits.
    static func generateId() throws(SecureRandom.Failure) -> String {
        "tok_" + Hex.encode(try SecureRandom.bytes(8))
    }

    /// Throws unless `name` is 1 to 64 characters from A-Z, a-z, 0-9, `.`, `_` and `-`, starting with a letter or digit:
    /// a name starting with `-` reads as an option on the command line (`tokens revoke --admin`, decision 0137). A name
    /// must not start with the tokens' prefix (`sgk_`) either: such a name is taken for a token's text pasted in its
    /// place, which messages never quote (decision 0153).
    static func validateName(_ name: String) throws(TokenError) {
        let bytes = Array(name.utf8)
        let allowed = bytes.allSatisfy { b in isLetterOrDigit(b) || b == 0x2E || b == 0x5F || b == 0x2D }
        guard let first = bytes.first, isLetterOrDigit(first), bytes.count <= 64, allowed, !TokenError.isTokenText(name) else {
            throw .invalidName(name.count > 80 ? String(name.prefix(80)) + "…" : name)
        }
    }

    private static func isLetterOrDigit(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
    }

    /// `items` without duplicates, in order; throws for empty, over-long or space-containing entries.
    static func validateScope(_ items: [String], kind: String) throws(TokenError) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for item in items {
            guard !item.isEmpty, item.utf8.count <= 128, !item.contains(where: \.isWhitespace) else {
                throw .invalidScope("the \(kind) entry \"\(item.prefix(40))\" is empty, longer than 128 bytes, or has spaces")
            }
            if seen.insert(item).inserted { out.append(item) }
        }
        return out
    }
}
