import SkillGateCore
import Testing
@testable import SkillGateSkills

/// What an MCP server or a webhook sends back is redacted by the providers' rule (decisions 0092, 0153): byte by byte,
/// whole or in runs of 12 bytes or more, in a text and in every string and key of a JSON value.
@Suite struct SecretTemplateRedactionTests {
    static let secret = "McpSecretValue0123456789XYZ"

    @Test(arguments: [
        "prefix: " + String(secret.prefix(20)),
        "suffix: " + String(secret.suffix(14)),
        "accent: " + secret + "\u{301}",
    ])
    func partsOfTheSecretAndACombiningMarkAfterItAreRedacted(_ echoed: String) {
        let text = SecretTemplate.redact(echoed, [Self.secret])
        #expect(Self.bytes(of: text, hold: "[redacted]"), "\(text)")
        #expect(!Self.bytes(of: text, hold: "McpSecretValue0") && !Self.bytes(of: text, hold: "456789XYZ"), "\(text)")
        let json = SecretTemplate.redact(["seen": [.string(echoed)], echoed: true] as JSONValue, [Self.secret]).serialized()
        #expect(!Self.bytes(of: json, hold: "456789XYZ") && !Self.bytes(of: json, hold: "McpSecretValue0"), "\(json)")
    }

    /// Whether `part`'s bytes occur in `text`'s. `String.contains` compares Characters, and "Z" followed by U+0301 is
    /// no "Z": it would call the accented echo clean while its bytes hold the secret.
    static func bytes(of text: String, hold part: String) -> Bool {
        let t = Array(text.utf8), p = Array(part.utf8)
        guard t.count >= p.count else { return false }
        return (0...(t.count - p.count)).contains { t[$0..<($0 + p.count)].elementsEqual(p) }
    }
}
