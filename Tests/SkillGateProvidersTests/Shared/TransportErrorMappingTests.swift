import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

/// What a client reads when the way to the provider failed: the provider's side named, and advice the client or the
/// operator can follow (not the HTTP library's own knobs).
@Suite struct TransportErrorMappingTests {
    @Test func anAnswerTooLargeToReadWholeSaysHowToGetItAnyway() {
        let e = HTTPClientError(kind: .responseTooLarge, detail: "the response body exceeded maxResponseBytes (1000 bytes); raise HTTPClient.Configuration.maxResponseBytes or use stream(_:)")
            .gatewayError(provider: "openai")
        #expect(e.status == 502 && e.domain == .provider && e.provider == "openai")
        #expect(e.message.contains("1000 bytes") && e.message.contains("\"stream\": true"), "\(e.message)")
        #expect(!e.message.contains("HTTPClient.Configuration") && !e.message.contains("connection to the provider broke"), "\(e.message)")
    }

    @Test func aBrokenConnectionSaysToRetry() {
        let e = HTTPClientError(kind: .transport, detail: "connection reset").gatewayError(provider: "openai")
        #expect(e.status == 502 && e.message.contains("connection to the provider broke") && e.message.contains("retry"))
    }
}
