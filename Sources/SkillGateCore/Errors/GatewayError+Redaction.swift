extension GatewayError {
    /// Secrets shorter than this are not searched for: a text that short is no key, and replacing it would mangle
    /// ordinary words of a message.
    public static let shortestRedactedSecret = 4

    /// This error with every occurrence of `secret` replaced by `[redacted]` in the texts an upstream can fill: the
    /// message, the parameter and the provider's own code.
    ///
    /// Upstream answers are not trusted to keep a key to themselves. A compatible provider, a debugging proxy or an
    /// echo service behind a mistaken `base_url` can send the key it was sent back in an error message, an error
    /// page, a non-JSON 200 or an error event inside a stream, and the adapters quote such text to say what went
    /// wrong. `HTTPLLMClient` applies this to every error of a call with the call's own key.
    public func redacting(_ secret: String?) -> GatewayError {
        guard let secret, secret.utf8.count >= Self.shortestRedactedSecret else { return self }
        var redacted = self
        redacted.message = Self.redact(secret, in: message)
        redacted.param = param.map { Self.redact(secret, in: $0) }
        redacted.upstreamCode = upstreamCode.map { Self.redact(secret, in: $0) }
        return redacted
    }

    /// The shortest piece of a secret that is redacted where it stands alone: an upstream that echoes part of the key
    /// (its first 20 characters, the key without its `sk-` prefix) gives away that part. Shorter pieces are left, so a
    /// provider's own masked echo (`sk-proj-****abcd`) still tells the operator which key was meant.
    public static let shortestRedactedPiece = 12

    /// `text` with `secret`, and every run of at least `shortestRedactedPiece` bytes that is also a run of `secret`,
    /// replaced by `[redacted]`.
    static func redact(_ secret: String, in text: String) -> String {
        let whole = text.contains(secret) ? text.replacing(secret, with: "[redacted]") : text
        let secretBytes = Array(secret.utf8), textBytes = Array(whole.utf8)
        let k = shortestRedactedPiece
        guard secretBytes.count >= k, textBytes.count >= k else { return whole }
        var pieces = Set<ArraySlice<UInt8>>()
        for start in 0...(secretBytes.count - k) { pieces.insert(secretBytes[start..<(start + k)]) }
        var covered = [Bool](repeating: false, count: textBytes.count)
        var found = false
        for start in 0...(textBytes.count - k) where pieces.contains(textBytes[start..<(start + k)]) {
            for i in start..<(start + k) { covered[i] = true }
            found = true
        }
        guard found else { return whole }
        var out: [UInt8] = []
        out.reserveCapacity(textBytes.count)
        var i = 0
        while i < textBytes.count {
            if covered[i] {
                out += Array("[redacted]".utf8)
                while i < textBytes.count, covered[i] { i += 1 }
            } else {
                out.append(textBytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
