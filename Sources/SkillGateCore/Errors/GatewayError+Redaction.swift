extension GatewayError {
    /// Secrets shorter than this are not searched for: a text that short is no key, and replacing it would mangle
    /// ordinary words of a message.
    public static let shortestRedactedSecret = SecretRedaction.shortestSecret

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

    /// The shortest piece of a secret that is redacted where it stands alone (`SecretRedaction.shortestPiece`).
    public static let shortestRedactedPiece = SecretRedaction.shortestPiece

    /// `text` with `secret`, and every run of at least `shortestRedactedPiece` bytes that is also a run of `secret`,
    /// replaced by `[redacted]` (the rule `SecretRedaction` keeps for every secret a third party may echo).
    static func redact(_ secret: String, in text: String) -> String {
        SecretRedaction.redact(text, [secret])
    }
}
