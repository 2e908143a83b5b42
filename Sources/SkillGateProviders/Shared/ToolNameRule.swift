import SkillGateCore

/// The longest tool name a request may declare (decision 0083). Providers accept 64 characters (OpenAI, Anthropic,
/// Gemini); the gateway refuses only names no provider could take, which would otherwise be carried whole into its
/// caches, headers and log lines.
public enum ToolNameRule {
    /// The most UTF-8 bytes of a declared tool's name.
    public static let maxBytes = 256

    /// Throws a 400 naming `param` when `name` is longer than `maxBytes`, or holds a control character, a comma or a
    /// semicolon. No provider takes those; the gateway would carry them into `x-skillgate-skills`, where a control
    /// character makes clients refuse the whole reply and a comma or semicolon would read as the header's own
    /// separators.
    public static func check(_ name: String, param: String) throws(GatewayError) {
        let bytes = name.utf8.count
        if bytes > maxBytes {
            throw GatewayError.invalidRequest(
                "`\(param)` is \(bytes) bytes long; a tool's name may be at most \(maxBytes) bytes (providers accept 64 characters: letters, digits, _ and -); shorten it",
                param: param)
        }
        guard let bad = name.utf8.first(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") }) else { return }
        let code = String(bad, radix: 16, uppercase: true)
        let what = bad == UInt8(ascii: ",") ? "a comma" : bad == UInt8(ascii: ";") ? "a semicolon"
            : "the control character U+" + String(repeating: "0", count: 4 - code.count) + code
        throw GatewayError.invalidRequest(
            "`\(param)` holds \(what); a tool's name may not hold control characters, commas or semicolons (providers accept letters, digits, _ and -); rename the tool",
            param: param)
    }
}
