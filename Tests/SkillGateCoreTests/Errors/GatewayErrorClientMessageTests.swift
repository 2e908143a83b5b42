import Testing
import SkillGateCore

/// What clients and the log see of an error message is bounded (decision 0082): its start, " … ", and its end.
@Suite struct GatewayErrorClientMessageTests {
    @Test func aShortMessageIsKeptAndNamesItsProvider() {
        let error = GatewayError(domain: .provider, kind: .rateLimited, status: 429, message: "slow down; retry in 2 s", provider: "openai")
        #expect(error.clientMessage == "openai: slow down; retry in 2 s")
    }

    /// The provider is named once: not again when the message names it as a word, but still when its name only occurs
    /// inside another word (`mp` in `complete`; decision 0111).
    @Test(arguments: [
        ("mp", "the answer was not complete", "mp: the answer was not complete"),
        ("mp", "mp rejected the key", "mp rejected the key"),
        ("openai", "openai (or a proxy in front of it) is rate limiting", "openai (or a proxy in front of it) is rate limiting"),
        ("openai", "the openai-compatible server failed", "openai: the openai-compatible server failed"),
        ("acme", "provider \"acme\" has no key", "provider \"acme\" has no key"),
    ])
    func theProviderIsNamedOnce(provider: String, message: String, shown: String) {
        let error = GatewayError(domain: .provider, kind: .upstreamError, status: 502, message: message, provider: provider)
        #expect(error.clientMessage == shown)
    }

    @Test func aMessageQuotingAHugeValueKeepsItsStartAndWhatToDoNext() {
        let model = String(repeating: "x", count: 200_000)
        let error = GatewayError.invalidRequest("model \"\(model)\" is not configured; use one of light, strong or auto")
        let shown = error.clientMessage
        let window = GatewayError.clientMessageWindow
        #expect(shown.utf8.count <= window.headBytes + window.tailBytes + " … ".utf8.count)
        #expect(shown.hasPrefix("model \"xxxx"))
        #expect(shown.contains(" … "))
        #expect(shown.hasSuffix("is not configured; use one of light, strong or auto"))
        #expect(error.message.utf8.count > 200_000, "the error itself keeps the whole message")
    }
}
