import SkillGateCore
import Testing

/// `SecretRedaction` takes secrets out of a third party's text byte by byte: whole, in pieces of 12 bytes or more, and
/// where a combining mark after the secret makes its last `Character` a different one (decision 0153).
@Suite struct SecretRedactionTests {
    static let secret = "McpSecretValue0123456789XYZ"

    @Test(arguments: [
        ("Bearer McpSecretValue0123456789XYZ", "Bearer [redacted]"),
        // The first 20 and the last 14 characters: an echo of part of a secret gives that part away.
        ("first McpSecretValue01234 then", "first [redacted] then"),
        ("last alue0123456789XYZ.", "last [redacted]."),
        // A combining acute accent after it: as Characters, "Z" + U+0301 is not "Z", so a whole match missed it.
        ("accented McpSecretValue0123456789XYZ\u{301} here", "accented [redacted]\u{301} here"),
        // A combining mark inside it leaves two pieces, each long enough.
        ("McpSecretValu\u{301}e0123456789XYZ", "[redacted]\u{301}[redacted]"),
        // Eleven bytes of it are no piece: a masked echo still tells which secret was meant.
        ("key McpSecretV****XYZ", "key McpSecretV****XYZ"),
        ("nothing of it", "nothing of it"),
    ])
    func takesOutTheSecretAndItsPieces(_ text: String, _ shown: String) {
        #expect(SecretRedaction.redact(text, [Self.secret]) == shown)
    }

    /// A secret shorter than a piece is taken out where it stands whole (bytes, so a combining mark after it does not
    /// hide it), and its parts are left; one shorter than four bytes is not looked for.
    @Test func aShortSecretIsTakenOutWholeOnly() {
        #expect(SecretRedaction.redact("pw Pw12345678 and Pw12345678\u{301}", ["Pw12345678"]) == "pw [redacted] and [redacted]\u{301}")
        #expect(SecretRedaction.redact("Pw1234567 is a part", ["Pw12345678"]) == "Pw1234567 is a part")
        #expect(SecretRedaction.redact("abc abc", ["abc"]) == "abc abc")
    }

    @Test func everySecretOfSeveralIsTakenOut() {
        let text = "a=McpSecretValue0123456789XYZ b=other-secret-abcdefghij"
        #expect(SecretRedaction.redact(text, [Self.secret, "other-secret-abcdefghij"]) == "a=[redacted] b=[redacted]")
        #expect(SecretRedaction.redact(text, []) == text)
    }

    /// A long text costs one pass per secret: a megabyte of tool result with the secret at its end is redacted.
    @Test func aLongTextIsRedactedToItsEnd() {
        let text = String(repeating: "x", count: 1_000_000) + Self.secret.dropFirst(3)
        let redacted = SecretRedaction.redact(text, [Self.secret])
        #expect(redacted.hasSuffix("x[redacted]") && redacted.utf8.count == 1_000_000 + 10)
    }
}
