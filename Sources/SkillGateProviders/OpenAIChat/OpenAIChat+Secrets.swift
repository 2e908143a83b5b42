/// Masks API-key-like tokens (`sk-...`, `sk-proj-...`, `gsk_...`) in provider error text,
/// so a key echoed (even partially) by a provider never reaches a client or a log.
enum OpenAIChatSecretScrubber {
    private static let prefixes = ["sk-", "gsk_", "xai-", "pk-"]

    /// `text` with every word that starts with a key prefix and is at least 12 characters long
    /// replaced by its prefix and `…[redacted]`.
    static func maskKeyLikeTokens(_ text: String) -> String {
        guard prefixes.contains(where: { text.contains($0) }) else { return text }
        var out = ""
        var word = ""
        func flush() {
            if word.count >= 12, let p = prefixes.first(where: { word.hasPrefix($0) }) {
                out += p + "…[redacted]"
            } else {
                out += word
            }
            word = ""
        }
        for ch in text {
            if ch.isLetter || ch.isNumber || ch == "-" || ch == "_" || ch == "*" {
                word.append(ch)
            } else {
                flush()
                out.append(ch)
            }
        }
        flush()
        return out
    }
}
