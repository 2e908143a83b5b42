/// A prompt-cache breakpoint (Anthropic `cache_control: {"type":"ephemeral"}`): the provider may cache the
/// prompt up to and including the block or tool that carries it. Wire formats without explicit breakpoints
/// ignore it (OpenAI and Gemini cache prefixes on their own).
public struct CacheControl: Sendable, Hashable {
    /// How long the cache entry lives (`"5m"`, `"1h"`); `nil` = the provider's default.
    public var ttl: String?

    public init(ttl: String? = nil) {
        self.ttl = ttl
    }
}

/// How the gateway places cache breakpoints for providers that need them (Anthropic).
public enum CacheBreakpointPlacement: String, Sendable, Hashable, CaseIterable {
    /// Only the breakpoints the client sent.
    case off
    /// When the client sent none: one after the last tool and one after the last system block — the stable
    /// prefix an agent resends on every turn.
    case prefix
}
