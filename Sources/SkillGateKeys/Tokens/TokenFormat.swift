/// The text of client tokens: `sgk_` + 43 base62 characters (32 random bytes, 256 bits).
public enum TokenFormat {
    /// Every token starts with this, so secret scanners and humans recognise it.
    public static let prefix = "sgk_"
    /// Random bytes per token.
    public static let randomByteCount = 32
    /// Total length of a token's text.
    public static let length = prefix.utf8.count + Base62.length(forByteCount: randomByteCount)

    /// A new random token.
    public static func generate() throws(SecureRandom.Failure) -> String {
        prefix + Base62.encode(try SecureRandom.bytes(randomByteCount))
    }

    /// Whether `text` has the shape of a token; a cheap check before hashing and looking it up.
    public static func looksLikeToken(_ text: String) -> Bool {
        text.utf8.count == length && text.hasPrefix(prefix) && Base62.isBase62(bytes: text.utf8.dropFirst(prefix.utf8.count))
    }

    /// The hash stored for `token`: SHA-256 of its UTF-8 text, as 64 lowercase hex digits.
    public static func hash(_ token: String) -> String {
        SHA256Hash.hex(token)
    }

    /// A new token id: `tok_` + 16 hex digits.
    static func generateID() throws(SecureRandom.Failure) -> String {
        "tok_" + Hex.encode(try SecureRandom.bytes(8))
    }

    /// Throws unless `name` is 1 to 64 characters from A-Z, a-z, 0-9, `.`, `_` and `-`.
    static func validateName(_ name: String) throws(TokenError) {
        let bytes = Array(name.utf8)
        let allowed = bytes.allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2E || b == 0x5F || b == 0x2D
        }
        guard !bytes.isEmpty, bytes.count <= 64, allowed else { throw .invalidName(name.count > 80 ? String(name.prefix(80)) + "…" : name) }
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
