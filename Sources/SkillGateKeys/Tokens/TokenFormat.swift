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
}
