import Testing
import SkillGateCore
@testable import SkillGateProviders

/// What a recorded stream must fold into.
struct AnthropicStreamCase: Sendable, CustomStringConvertible {
    var file: String
    var id: String
    var textPrefix: String
    var textSuffix: String = ""
    /// Tool calls as (name, canonical JSON of the parsed arguments, or nil when they must be invalid JSON).
    var toolCalls: [(name: String, arguments: String?)] = []
    var thinkingPrefix: String? = nil
    var signaturePrefix: String? = nil
    var redactedBlocks = 0
    var finish: FinishReason
    var inputTokens: Int
    var outputTokens: Int

    var description: String { file }
}

@Suite struct AnthropicStreamFixtureTests {
    static let cases: [AnthropicStreamCase] = [
        .init(file: "anthropic-text.chunks.txt", id: "msg_01QC4g3HwBThD4BaNtBckFDJ", textPrefix: "Hello",
              textSuffix: "Is there anything I can help you with?", finish: .stop, inputTokens: 12, outputTokens: 30),
        .init(file: "anthropic-json-tool.2.chunks.txt", id: "msg_01K2JbSUMYhez5RHoK9ZCj9U",
              textPrefix: "I'll invoke the JSON response tool.", textSuffix: "tool.",
              toolCalls: [("json", #"{"elements":[{"location":"San Francisco","temperature":58,"condition":"sunny"}]}"#)],
              finish: .toolCalls, inputTokens: 849, outputTokens: 47),
        .init(file: "anthropic-tool-no-args.chunks.txt", id: "msg_01GE2RKp1VYsPzdFs3sS9z5S",
              textPrefix: "I'll update the issue list for you.", toolCalls: [("updateIssueList", "{}")],
              finish: .toolCalls, inputTokens: 565, outputTokens: 48),
        .init(file: "anthropic-clear-thinking.1.chunks.txt", id: "msg_01Y6V41gqPaKWEw7iPouH7iW", textPrefix: "925 ÷ 5 = 185",
              thinkingPrefix: "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185",
              signaturePrefix: "EvQBCkYICxgCKkAxhD4N", finish: .stop, inputTokens: 69, outputTokens: 53),
        .init(file: "anthropic-message-delta-input-tokens.chunks.txt", id: "msg_3196a1cc08de4d76b85b8f5777c0d42b",
              textPrefix: "p", finish: .stop, inputTokens: 61, outputTokens: 2),
        .init(file: "tool_use_response.txt", id: "msg_019Q1hrJbZG26Fb9BQhrkHEr",
              textPrefix: "I'll check the current weather in Paris for you.", toolCalls: [("get_weather", #"{"location":"Paris"}"#)],
              finish: .toolCalls, inputTokens: 377, outputTokens: 65),
        .init(file: "incomplete_partial_json_response.txt", id: "msg_01UdjYBBipA9omjYhicnevgq",
              textPrefix: "I'll create a comprehensive tax guide", toolCalls: [("make_file", nil)],
              finish: .length, inputTokens: 450, outputTokens: 124),
        .init(file: "test_anthropic_model_thinking_part_stream.0.response.sse", id: "msg_01ALwQ87pTS7hH1PjSdC9wJD",
              textPrefix: "Here are the basic steps for safely crossing the street:", textSuffix: "safety over speed when crossing streets.",
              thinkingPrefix: "This is a straightforward question about pedestrian safety.", signaturePrefix: "EvMCCkYICx",
              finish: .stop, inputTokens: 43, outputTokens: 282),
        .init(file: "test_anthropic_model_thinking_part_redacted_stream.0.response.sse", id: "msg_018XZkwvj9asBiffg3fXt88s",
              textPrefix: "I notice that you've sent what appears", textSuffix: "today with a legitimate task or question?",
              redactedBlocks: 2, finish: .stop, inputTokens: 92, outputTokens: 189),
    ]

    @Test(arguments: cases)
    func wholeAndByteByByteGiveTheSameEvents(_ c: AnthropicStreamCase) throws {
        let body = try AnthropicTestSupport.streamBody(c.file)
        let whole = try StreamFeeding.whole(AnthropicTestSupport.translator(), body)
        let bytewise = try StreamFeeding.byteByByte(AnthropicTestSupport.translator(), body)
        #expect(!whole.isEmpty)
        #expect(whole == bytewise)
    }

    @Test(arguments: cases)
    func foldsIntoTheRecordedAnswer(_ c: AnthropicStreamCase) throws {
        let events = try AnthropicTestSupport.events(try AnthropicTestSupport.streamBody(c.file))
        let response = StreamFeeding.response(events)
        #expect(response.id == c.id)
        #expect(response.text.hasPrefix(c.textPrefix))
        #expect(response.text.hasSuffix(c.textSuffix))
        #expect(response.finishReason == c.finish)
        #expect(response.usage.inputTokens == c.inputTokens)
        #expect(response.usage.outputTokens == c.outputTokens)
        let calls = response.toolCalls
        try #require(calls.count == c.toolCalls.count)
        for (call, expected) in zip(calls, c.toolCalls) {
            #expect(call.name == expected.name)
            #expect(call.id.hasPrefix("toolu_"))
            if let arguments = expected.arguments {
                #expect(call.parsedArguments?.serialized() == arguments)
            } else {
                #expect(call.parsedArguments == nil, "arguments cut off by max_tokens must stay visibly incomplete")
            }
        }
        let thinking = response.content.compactMap { block -> Thinking? in
            if case .thinking(let t) = block { return t } else { return nil }
        }
        #expect(thinking.filter { $0.redactedData != nil }.count == c.redactedBlocks)
        #expect(thinking.allSatisfy { $0.redactedData.map { !$0.isEmpty } ?? true })
        if let prefix = c.thinkingPrefix {
            let visible = try #require(thinking.first { $0.redactedData == nil })
            #expect(visible.text.hasPrefix(prefix))
            #expect(visible.signature?.hasPrefix(c.signaturePrefix ?? "") == true)
        } else {
            #expect(thinking.allSatisfy { $0.redactedData != nil })
        }
    }

    @Test(arguments: cases)
    func eventOrderFollowsTheContract(_ c: AnthropicStreamCase) throws {
        let events = try AnthropicTestSupport.events(try AnthropicTestSupport.streamBody(c.file))
        guard case .start = events.first else { Issue.record("first event is not .start: \(String(describing: events.first))"); return }
        guard case .usage = events.last else { Issue.record("last event is not .usage"); return }
        var openCalls: Set<Int> = []
        var nextOrdinal = 0
        for event in events {
            switch event {
            case .toolCallStart(let ordinal, _, _):
                #expect(ordinal == nextOrdinal, "ordinals count tool calls, not content blocks")
                nextOrdinal += 1
                openCalls.insert(ordinal)
            case .toolCallArgumentsDelta(let ordinal, let fragment):
                #expect(openCalls.contains(ordinal))
                #expect(!fragment.isEmpty)
            case .toolCallEnd(let ordinal):
                #expect(openCalls.remove(ordinal) != nil)
            case .finish:
                #expect(openCalls.isEmpty, "every tool call ends before the finish reason")
            default: break
            }
        }
    }

    @Test func toolWithoutArgumentsStreamsTheSameAsTheNonStreamedAnswer() throws {
        let streamed = StreamFeeding.response(try AnthropicTestSupport.events(try AnthropicTestSupport.streamBody("anthropic-tool-no-args.chunks.txt")))
        let whole = try AnthropicTestSupport.format.parseResponse(try Fixtures.bytes("anthropic/anthropic-tool-no-args.json"),
                                                                   deployment: AnthropicTestSupport.deployment)
        #expect(streamed.toolCalls.map(\.arguments) == ["{}"])
        #expect(whole.toolCalls.map(\.arguments) == ["{}"])
        #expect(streamed.toolCalls.map(\.name) == whole.toolCalls.map(\.name))
    }

    @Test func cacheCountersAreAddedToInputAndListedApart() throws {
        let body = """
        event: message_start
        data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"cache_read_input_tokens":100,"cache_creation_input_tokens":5,"output_tokens":1}}}

        event: message_delta
        data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":7}}

        event: message_stop
        data: {"type":"message_stop"}


        """
        let events = try AnthropicTestSupport.events(Array(body.utf8))
        #expect(events.last == .usage(Usage(inputTokens: 115, outputTokens: 7, cachedInputTokens: 100, cacheWriteTokens: 5)))
        #expect(events.filter { if case .usage = $0 { return true } else { return false } }.count == 1)
    }
}
