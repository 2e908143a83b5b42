/// Masks secrets for listings: `sk-proj-…` becomes `sk-…a1b2`.
public enum SecretMask {
    /// Secrets shorter than this are masked completely.
    public static let minimumLengthToReveal = 12

    /// A short prefix (up to and including a `-` among the first four characters, otherwise three
    /// characters), an ellipsis, and the last four characters. Short secrets become `****`.
    public static func mask(_ secret: String) -> String {
        let chars = Array(secret)
        guard chars.count >= minimumLengthToReveal else { return "****" }
        let prefix: ArraySlice<Character>
        if let dash = chars.prefix(4).firstIndex(of: "-") {
            prefix = chars[...dash]
        } else {
            prefix = chars.prefix(3)
        }
        return String(prefix) + "…" + String(chars.suffix(4))
    }
}
