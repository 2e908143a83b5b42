import Foundation
import Testing
import SkillGateCore
@testable import SkillGateProviders

/// The Anthropic stream's `start` is held back from `message_start` until the first content block the client would see
/// (text, thinking, redacted thinking, a tool call), or `message_delta` / `message_stop` for an answer without one
/// (decision 0134): an `event: error`, a cut or a clean end before that point fails the stream before its first event,
/// so the route executor tries again or falls back. Everything else is unchanged, event for event.
@Suite struct AnthropicHeldStartTests {
    /// A `message_start` with cache counters, as Anthropic sends it.
    static let messageStart = """
    event: message_start
    data: {"type":"message_start","message":{"id":"msg_held","type":"message","role":"assistant","model":"claude-held","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"cache_read_input_tokens":100,"cache_creation_input_tokens":5,"output_tokens":1}}}


    """
    static let ping = "event: ping\ndata: {\"type\": \"ping\"}\n\n"

    static func errorEvent(_ type: String, _ message: String) -> String {
        "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"\(type)\", \"message\": \"\(message)\"}}\n\n"
    }

    static func blockStart(_ block: String) -> String {
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":\(block)}\n\n"
    }

    static let end = """
    event: message_delta
    data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":7}}

    event: message_stop
    data: {"type":"message_stop"}


    """

    /// The events given while `body` is fed one SSE event at a time, per event, and the error thrown (nil: none).
    static func eventByEvent(_ body: String) -> (perEvent: [[ChatStreamEvent]], error: GatewayError?) {
        var t = AnthropicTestSupport.translator()
        var perEvent: [[ChatStreamEvent]] = []
        do {
            for event in body.components(separatedBy: "\n\n") where !event.isEmpty {
                perEvent.append(try t.feed(Array((event + "\n\n").utf8)))
            }
            perEvent.append(try t.finish())
            return (perEvent, nil)
        } catch {
            return (perEvent, error as? GatewayError)
        }
    }

    @Test func messageStartAndPingsGiveNoEvent() throws {
        var t = AnthropicTestSupport.translator()
        #expect(try t.feed(Array((Self.messageStart + Self.ping + Self.ping).utf8)) == [])
    }

    @Test(arguments: [("overloaded_error", GatewayError.Kind.upstreamOverloaded), ("api_error", .upstreamError)])
    func anErrorAfterMessageStartFailsBeforeAnyEvent(_ type: String, _ kind: GatewayError.Kind) {
        let body = Self.messageStart + Self.ping + Self.errorEvent(type, "Overloaded")
        let (perEvent, error) = Self.eventByEvent(body)
        #expect(perEvent.allSatisfy { $0.isEmpty }, "nothing goes out before the error: \(perEvent)")
        #expect(error?.kind == kind && error?.provider == "anthropic" && error?.streamEndedEarly == false, "\(String(describing: error))")
        var seen: [ChatStreamEvent] = []
        var thrown: GatewayError?
        var t = AnthropicTestSupport.translator()
        do {
            for b in Array(body.utf8) { seen += try t.feed([b]) }
        } catch {
            thrown = error as? GatewayError
        }
        #expect(seen.isEmpty && thrown?.kind == kind, "byte by byte too: \(seen)")
    }

    @Test func aStreamThatEndsAfterMessageStartIsCutShortBeforeAnyEvent() {
        let (perEvent, error) = Self.eventByEvent(Self.messageStart + Self.ping)
        #expect(perEvent.allSatisfy { $0.isEmpty }, "\(perEvent)")
        #expect(error?.kind == .upstreamProtocol && error?.streamEndedEarly == true, "\(String(describing: error))")
        #expect(error?.message.contains("before `message_stop`") == true)
    }

    /// Each content block type the client sees releases `start`, with `message_start`'s id and model, just before the
    /// block's own events.
    @Test(arguments: [
        (#"{"type":"text","text":""}"#, [ChatStreamEvent]()),
        (#"{"type":"text","text":"Hi"}"#, [.textDelta("Hi")]),
        (#"{"type":"thinking","thinking":"","signature":""}"#, []),
        (#"{"type":"redacted_thinking","data":"EmwKAhgB"}"#, [.redactedThinking("EmwKAhgB")]),
        (#"{"type":"tool_use","id":"toolu_1","name":"lookup","input":{}}"#, [.toolCallStart(ordinal: 0, id: "toolu_1", name: "lookup")]),
    ])
    func theFirstContentBlockStartReleasesStart(_ block: String, _ blockEvents: [ChatStreamEvent]) {
        let (perEvent, error) = Self.eventByEvent(Self.messageStart + Self.ping + Self.blockStart(block))
        #expect(perEvent.count == 3 && perEvent[0].isEmpty && perEvent[1].isEmpty, "\(perEvent)")
        #expect(perEvent.count > 2 && perEvent[2] == [.start(id: "msg_held", model: "claude-held")] + blockEvents, "\(perEvent)")
        #expect(error?.kind == .upstreamProtocol, "then the end, before `message_stop`: a truncation after the first event")
    }

    @Test func aBlockTheClientDoesNotSeeDoesNotReleaseStart() {
        let block = #"{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}"#
        let body = Self.messageStart + Self.blockStart(block) + Self.errorEvent("overloaded_error", "Overloaded")
        let (perEvent, error) = Self.eventByEvent(body)
        #expect(perEvent.allSatisfy { $0.isEmpty } && error?.kind == .upstreamOverloaded, "\(perEvent)")
    }

    /// An answer without a content block starts at `message_delta`, with the held usage (cache counters included).
    @Test func anAnswerWithoutContentStartsAtMessageDelta() {
        let (perEvent, error) = Self.eventByEvent(Self.messageStart + Self.ping + Self.end)
        #expect(error == nil)
        #expect(perEvent.count == 5 && perEvent[0].isEmpty && perEvent[1].isEmpty, "\(perEvent)")
        #expect(perEvent.count > 2 && perEvent[2] == [.start(id: "msg_held", model: "claude-held"), .finish(.stop),
                                                     .usage(Usage(inputTokens: 115, outputTokens: 7, cachedInputTokens: 100, cacheWriteTokens: 5))])
    }

    /// `message_start`, then `message_stop` with no `message_delta`: still an (empty) answer, started at its end.
    @Test func messageStopAloneStillStartsTheAnswer() throws {
        let stop = "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
        #expect(try AnthropicTestSupport.events(Array((Self.messageStart + stop).utf8)) == [.start(id: "msg_held", model: "claude-held")])
    }

    /// Guard: `message_start`'s usage, held with `start`, still reaches the final usage event.
    @Test func theHeldUsageReachesTheEnd() throws {
        let body = Self.messageStart + Self.blockStart(#"{"type":"text","text":""}"#)
            + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello\"}}\n\n"
            + "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" + Self.end
        #expect(try AnthropicTestSupport.events(Array(body.utf8)) == [
            .start(id: "msg_held", model: "claude-held"), .textDelta("Hello"), .finish(.stop),
            .usage(Usage(inputTokens: 115, outputTokens: 7, cachedInputTokens: 100, cacheWriteTokens: 5)),
        ])
    }
}
