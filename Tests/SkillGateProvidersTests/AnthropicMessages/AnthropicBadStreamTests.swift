import Foundation
import Testing
import SkillGateCore
@testable import SkillGateProviders

/// Upstream streams that go wrong after HTTP 200.
@Suite struct AnthropicBadStreamTests {
    static let start = """
    event: message_start
    data: {"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}

    event: content_block_start
    data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

    event: content_block_delta
    data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}


    """

    /// Anthropic's documented shape of an error sent as an SSE event after the 200 status line.
    static let overloadedEvent = """
    event: error
    data: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}


    """

    @Test func errorEventAfter200Throws() {
        for body in [Self.start + Self.overloadedEvent, Self.overloadedEvent] {
            let e = AnthropicTestSupport.streamError(Array(body.utf8))
            #expect(e?.kind == .upstreamOverloaded)
            #expect(e?.status == 503)
            #expect(e?.upstreamStatus == 529)
            #expect(e?.provider == "anthropic")
            #expect(e?.message.contains("Overloaded") == true)
        }
    }

    @Test func errorEventIsFoundByteByByteToo() {
        let body = Array((Self.start + Self.overloadedEvent).utf8)
        var t = AnthropicTestSupport.translator()
        var seen: [ChatStreamEvent] = []
        var thrown: GatewayError?
        do {
            for b in body { seen += try t.feed([b]) }
        } catch {
            thrown = error as? GatewayError
        }
        #expect(thrown?.kind == .upstreamOverloaded)
        #expect(seen.contains(.textDelta("Hel")), "events before the error are delivered")
    }

    @Test func truncatedStreamThrowsNamingTheProvider() {
        let e = AnthropicTestSupport.streamError(Array(Self.start.utf8))
        #expect(e?.kind == .upstreamProtocol)
        #expect(e?.provider == "anthropic")
        #expect(e?.message.contains("anthropic") == true)
        #expect(e?.message.contains("truncated") == true)
    }

    @Test func recordedStreamCutBeforeMessageStopThrows() throws {
        let full = try AnthropicTestSupport.streamBody("anthropic-text.chunks.txt")
        let cut = Array(String(decoding: full, as: UTF8.self).components(separatedBy: "event: message_stop")[0].utf8)
        #expect(AnthropicTestSupport.streamError(cut)?.kind == .upstreamProtocol)
        #expect(AnthropicTestSupport.streamError(full) == nil)
    }

    @Test(arguments: ["", "<html><body><h1>502 Bad Gateway</h1></body></html>\n"])
    func emptyOrHTMLBodyIsTruncation(_ body: String) {
        let e = AnthropicTestSupport.streamError(Array(body.utf8))
        #expect(e?.kind == .upstreamProtocol)
        #expect(e?.message.contains("before `message_start`") == true)
    }

    @Test func malformedEventJSONThrows() {
        let body = Self.start + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\"\n\n"
        let e = AnthropicTestSupport.streamError(Array(body.utf8))
        #expect(e?.kind == .upstreamProtocol)
        #expect(e?.message.contains("not JSON") == true)
    }

    @Test func bareJSONErrorBodyInsteadOfEventsIsReported() {
        let body = #"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#
        let e = AnthropicTestSupport.streamError(Array(body.utf8))
        #expect(e?.kind == .rateLimited)
        #expect(e?.message.contains("slow down") == true)
    }

    @Test func unknownEventsAndPingsAreIgnored() throws {
        let body = """
        event: message_start
        data: {"type":"message_start","message":{"id":"m","model":"c","usage":{"input_tokens":1,"output_tokens":0}}}

        event: ping
        data: {"type": "ping"}

        event: shiny_new_event
        data: {"type":"shiny_new_event","whatever":[1,2]}

        event: content_block_start
        data: {"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srv_1","name":"web_search","input":{}}}

        event: content_block_stop
        data: {"type":"content_block_stop","index":0}

        event: message_delta
        data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}

        event: message_stop
        data: {"type":"message_stop"}


        """
        let events = try AnthropicTestSupport.events(Array(body.utf8))
        #expect(events == [.start(id: "m", model: "c"), .finish(.stop), .usage(Usage(inputTokens: 1, outputTokens: 2))])
    }
}
