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
    /// Over the text's contiguous UTF-8 bytes (a native string's): `hasPrefix` and a sliced view cost ~1k
    /// instructions per check, on every request.
    public static func looksLikeToken(_ text: String) -> Bool {
        if let looks = text.utf8.withContiguousStorageIfAvailable({ looksLikeToken(bytes: $0) }) { return looks }
        return Array(text.utf8).withUnsafeBufferPointer { looksLikeToken(bytes: $0) }
    }

    private static let prefixBytes = Array(prefix.utf8)

    private static func looksLikeToken(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == length else { return false }
        for (i, byte) in prefixBytes.enumerated() where bytes[i] != byte { return false }
        return Base62.isBase62(bytes: UnsafeBufferPointer(rebasing: bytes[prefixBytes.count...]))
    }

    /// The hash stored for `token`: SHA-256 of its UTF-8 text, as 64 lowercase hex digits.
    public static func hash(_ token: String) -> String {
        SHA256Hash.hex(token)
    }
}
