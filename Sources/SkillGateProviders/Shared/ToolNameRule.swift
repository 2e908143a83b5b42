import SkillGateCore

/// The longest tool name a request may declare (decision 0083). Providers accept 64 characters (OpenAI, Anthropic,
/// Gemini); the gateway refuses only names no provider could take, which would otherwise be carried whole into its
/// caches, headers and log lines.
public enum ToolNameRule {
    /// The most UTF-8 bytes of a declared tool's name.
    public static let maxBytes = 256

    /// Throws a 400 naming `param` when `name` is longer than `maxBytes`.
    public static func check(_ name: String, param: String) throws(GatewayError) {
        let bytes = name.utf8.count
        guard bytes > maxBytes else { return }
        throw GatewayError.invalidRequest(
            "`\(param)` is \(bytes) bytes long; a tool's name may be at most \(maxBytes) bytes (providers accept 64 characters: letters, digits, _ and -); shorten it",
            param: param)
    }
}
