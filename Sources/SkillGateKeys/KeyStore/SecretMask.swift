/// Shows just enough of a secret to tell keys apart in `skillgate keys list`, and never a large share of one.
///
/// Provider keys are long (an OpenAI `sk-proj-` key has more than 150 characters, a Gemini key 39), but the key store
/// also holds the `${secret:NAME}` values of MCP servers and webhooks, which can be a short password. What is shown
/// depends on the length (decision 0153): nothing below `minimumLengthToReveal`; the last four characters below
/// `minimumLengthForPrefix`; from there a short prefix too. At most a quarter of a secret of 16 to 23 characters and a
/// third of one of 24 is shown, and less the longer it is; every provider key keeps the form it had (`sk-…a1b2`).
public enum SecretMask {
    /// Secrets shorter than this are masked completely.
    public static let minimumLengthToReveal = 16
    /// Secrets at least this long also show their prefix (which for provider keys is the provider's, not secret).
    public static let minimumLengthForPrefix = 24

    /// A short prefix (up to and including a `-` among the first four characters, otherwise three characters, and only
    /// from `minimumLengthForPrefix` characters), an ellipsis, and the last four characters. Short secrets become `****`.
    public static func mask(_ secret: String) -> String {
        let chars = Array(secret)
        guard chars.count >= minimumLengthToReveal else { return "****" }
        let suffix = String(chars.suffix(4))
        guard chars.count >= minimumLengthForPrefix else { return "…" + suffix }
        let prefix: ArraySlice<Character>
        if let dash = chars.prefix(4).firstIndex(of: "-") {
            prefix = chars[...dash]
        } else {
            prefix = chars.prefix(3)
        }
        return String(prefix) + "…" + suffix
    }
}
