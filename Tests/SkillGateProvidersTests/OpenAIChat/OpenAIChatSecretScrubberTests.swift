import Testing
@testable import SkillGateProviders

/// Key-like tokens in provider error text are masked; the byte search that decides whether to look finds every text
/// the character search found.
@Suite struct OpenAIChatSecretScrubberTests {
    @Test(arguments: [
        ("invalid key sk-abcdefghijklmnop provided", "invalid key sk-…[redacted] provided"),
        ("project key sk-proj-AbCdEf123456_789 was revoked", "project key sk-…[redacted] was revoked"),
        ("gsk_0123456789abcdef, xai-ZYXWVUTSRQPO; pk-1234567890ab!", "gsk_…[redacted], xai-…[redacted]; pk-…[redacted]!"),
        ("short sk-abc stays", "short sk-abc stays"),
        ("no key here at all", "no key here at all"),
        ("", ""),
        ("clé invalide « sk-ÉtéÀùñ123456 » reçue", "clé invalide « sk-…[redacted] » reçue"),
        ("ask-me-anything-please is a word", "ask-me-anything-please is a word"),
    ])
    func masksKeyLikeWords(_ text: String, _ expected: String) {
        #expect(OpenAIChatSecretScrubber.maskKeyLikeTokens(text) == expected)
    }

    /// The byte search against the character search it replaced, on texts with prefixes beside combining marks,
    /// non-ASCII letters and look-alikes (a Kelvin sign, a full-width hyphen).
    @Test func theByteSearchFindsEveryPrefixTheCharacterSearchFound() {
        let texts = ["sk-", "s k-", "sk\u{301}-", "sk-\u{301}", "\u{212A}sk-", "s\u{212A}-", "sk\u{FF0D}", "gsk_x", "gs k_", "xai",
                     "xai-", "XAI-", "pk-", "p\u{0301}k-", "日本sk-語", "😀gsk_😀", "pk", "-sk-", "", "sk", "k-"]
        for text in texts {
            let characterSearch = ["sk-", "gsk_", "xai-", "pk-"].contains { text.contains($0) }
            if characterSearch { #expect(OpenAIChatSecretScrubber.mayHoldAKey(text), "\(text.unicodeScalars.map(\.value))") }
        }
        #expect(!OpenAIChatSecretScrubber.mayHoldAKey("an ordinary error message without one"))
    }
}
