import Testing
import SkillGateCore
@testable import SkillGateProviders

/// Streams that go wrong after HTTP 200.
@Suite struct OpenAIChatBadStreamTests {
    static let header = #""id":"chatcmpl-x","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini""#

    static func chunk(_ choices: String) -> String { "data: {\(header),\"choices\":[\(choices)]}\n\n" }

    /// Feeds `text` whole and one byte at a time; both must throw the same error.
    static func error(feeding text: String, provider: String = "acme") -> GatewayError? {
        let body = Array(text.utf8)
        let whole = OpenAIChatTestSupport.gatewayError { _ = try StreamFeeding.whole(OpenAIChatTestSupport.translator(provider: provider), body) }
        let bytes = OpenAIChatTestSupport.gatewayError { _ = try StreamFeeding.byteByByte(OpenAIChatTestSupport.translator(provider: provider), body) }
        #expect(whole == bytes)
        return whole
    }

    @Test func malformedJSONChunkNamesTheProviderAndTheProblem() throws {
        let text = Self.chunk(#"{"index":0,"delta":{"content":"Hi"},"finish_reason":null}"#) + "data: {\"id\":\"chatcmpl-x\",\"choices\":[{\"index\":0,\n\n"
        let e = try #require(Self.error(feeding: text))
        #expect(e.kind == .upstreamProtocol)
        #expect(e.status == 502)
        #expect(e.provider == "acme")
        #expect(e.message.contains("acme"))
        #expect(e.message.contains("not valid JSON"))
    }

    @Test func truncatedStreamThrowsNamingTheProvider() throws {
        let text = Self.chunk(#"{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}"#)
        let e = try #require(Self.error(feeding: text))
        #expect(e.kind == .upstreamProtocol)
        #expect(e.message.contains("acme"))
        #expect(e.message.contains("truncated"))
    }

    @Test func emptyBodyIsTruncated() throws {
        let e = try #require(Self.error(feeding: ""))
        #expect(e.message.contains("before any chunk"))
    }

    @Test func truncatedMidToolCallThrows() throws {
        let body = try OpenAIChatTestSupport.streamBody("test_parse_multiple_pydantic_tools.sse")
        let cut = String(decoding: body.prefix(body.count / 2), as: UTF8.self)
        let e = try #require(Self.error(feeding: cut))
        #expect(e.kind == .upstreamProtocol)
    }

    @Test func errorEventAfter200Throws() throws {
        let text = Self.chunk(#"{"index":0,"delta":{"content":"Hel"},"finish_reason":null}"#)
            + #"data: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}"# + "\n\n"
        let e = try #require(Self.error(feeding: text))
        #expect(e.kind == .upstreamError)
        #expect(e.provider == "acme")
        #expect(e.message.contains("The server had an error"))
        #expect(e.upstreamCode == "server_error")
    }

    @Test func rateLimitErrorEventMapsToRateLimited() throws {
        let text = #"data: {"error":{"message":"Rate limit reached","type":"rate_limit_error","code":"rate_limit_exceeded"}}"# + "\n\n"
        let e = try #require(Self.error(feeding: text))
        #expect(e.kind == .rateLimited)
        #expect(e.status == 429)
    }

    @Test func bareJSONErrorBodyWithoutDataPrefixThrows() throws {
        let e = try #require(Self.error(feeding: #"{"error":{"message":"Invalid model","type":"invalid_request_error","code":"model_not_found"}}"#))
        #expect(e.kind == .notFound)
        #expect(e.message.contains("Invalid model"))
    }

    @Test func htmlPageInsteadOfAStreamSaysSo() throws {
        let e = try #require(Self.error(feeding: "<html><body><h1>502 Bad Gateway</h1></body></html>\n"))
        #expect(e.kind == .upstreamProtocol)
        #expect(e.message.contains("received an HTML page"))
        #expect(e.message.contains("acme"))
    }

    @Test func doneWithoutFinishReasonClosesToolCalls() throws {
        let text = Self.chunk(#"{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}"#)
            + "data: [DONE]\n\n"
        let events = try StreamFeeding.byteByByte(OpenAIChatTestSupport.translator(), Array(text.utf8))
        #expect(Array(events.suffix(2)) == [.toolCallEnd(ordinal: 0), .finish(.toolCalls)])
    }

    @Test func crlfFramingAndIndexlessCallsFromCompatibleServers() throws {
        // Some compatible servers send whole calls without `index`, and CRLF line ends.
        let text = (Self.chunk(#"{"index":0,"delta":{"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}},{"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]},"finish_reason":"tool_calls"}"#)
            + "data: [DONE]\n\n").replacing("\n", with: "\r\n")
        let events = try StreamFeeding.byteByByte(OpenAIChatTestSupport.translator(), Array(text.utf8))
        let calls = StreamFeeding.response(events).toolCalls
        #expect(calls.map(\.id) == ["a", "b"])
        #expect(calls.map(\.arguments) == [#"{"x":1}"#, "{}"])
    }

    @Test func bytesAfterDoneAreIgnored() throws {
        let text = Self.chunk(#"{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}"#) + "data: [DONE]\n\ndata: {garbage\n\n"
        let events = try StreamFeeding.whole(OpenAIChatTestSupport.translator(), Array(text.utf8))
        #expect(StreamFeeding.response(events).text == "ok")
    }
}
