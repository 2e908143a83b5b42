/// Masks API-key-like tokens (`sk-...`, `sk-proj-...`, `gsk_...`) in provider error text,
/// so a key echoed (even partially) by a provider never reaches a client or a log.
enum OpenAIChatSecretScrubber {
    private static let prefixes = ["sk-", "gsk_", "xai-", "pk-"]

    /// `text` with every word that starts with a key prefix and is at least 12 characters long
    /// replaced by its prefix and `…[redacted]`.
    static func maskKeyLikeTokens(_ text: String) -> String {
        guard mayHoldAKey(text) else { return text }
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

    /// Whether a key prefix occurs in `text`'s UTF-8 bytes. Wherever a prefix occurs as characters, its ASCII bytes
    /// occur too, so a text without them has no key to mask; this byte search replaces a character search that cost
    /// hundreds of thousands of instructions for an error message of a few hundred bytes.
    static func mayHoldAKey(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return prefixBytes.contains { prefix in
            guard bytes.count >= prefix.count else { return false }
            return (0...(bytes.count - prefix.count)).contains { start in
                bytes[start] == prefix[0] && bytes[start..<(start + prefix.count)].elementsEqual(prefix)
            }
        }
    }

    private static let prefixBytes = prefixes.map { Array($0.utf8) }
}
