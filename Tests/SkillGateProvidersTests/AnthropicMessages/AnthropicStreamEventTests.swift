import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// The stream event reader (a `JSONCursor` reader) against lookups in the full `JSONValue` tree,
/// which the translator used before: same fields on every recorded event and on odd shapes.
@Suite struct AnthropicStreamEventTests {
    static let streamFiles = [
        "anthropic-text.chunks.txt", "anthropic-json-tool.2.chunks.txt", "anthropic-tool-no-args.chunks.txt",
        "anthropic-clear-thinking.1.chunks.txt", "anthropic-message-delta-input-tokens.chunks.txt", "tool_use_response.txt",
        "incomplete_partial_json_response.txt", "test_anthropic_model_thinking_part_stream.0.response.sse",
        "test_anthropic_model_thinking_part_redacted_stream.0.response.sse",
    ]

    static func read(_ text: String) throws -> AnthropicStreamEvent {
        var event = AnthropicStreamEvent()
        try Array(text.utf8).withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in try event.read(buffer) }
        return event
    }

    /// The block fields as the translator read them from the tree.
    static func expectSameBlock(_ block: AnthropicStreamEvent.Block?, _ value: JSONValue?, _ context: String) {
        #expect((block != nil) == (value != nil), "\(context): presence")
        #expect(block?.type == value?["type"]?.stringValue, "\(context)")
        #expect(block?.text == value?["text"]?.stringValue, "\(context)")
        #expect(block?.thinking == value?["thinking"]?.stringValue, "\(context)")
        #expect(block?.signature == value?["signature"]?.stringValue, "\(context)")
        #expect(block?.data == value?["data"]?.stringValue, "\(context)")
        #expect(block?.id == value?["id"]?.stringValue, "\(context)")
        #expect(block?.name == value?["name"]?.stringValue, "\(context)")
        #expect(block?.input == value?["input"]?.objectValue, "\(context)")
        #expect(block?.partialJSON == value?["partial_json"]?.stringValue, "\(context)")
        #expect(block?.stopReason == value?["stop_reason"]?.stringValue, "\(context)")
    }

    static func expectSameEvent(_ text: String) throws {
        let event = try read(text)
        let json = try JSONValue.parse(text)
        #expect(event.type == json["type"]?.stringValue, "\(text)")
        #expect(event.index == json["index"]?.intValue, "\(text)")
        #expect(event.messageId == json["message"]?["id"]?.stringValue, "\(text)")
        #expect(event.messageModel == json["message"]?["model"]?.stringValue, "\(text)")
        #expect(event.messageUsage == AnthropicUsageCounts(json["message"]?["usage"]), "\(text)")
        #expect(event.usage == AnthropicUsageCounts(json["usage"]), "\(text)")
        #expect(event.error == json["error"], "\(text)")
        expectSameBlock(event.contentBlock, json["content_block"], text)
        expectSameBlock(event.delta, json["delta"], text)
    }

    @Test(arguments: streamFiles)
    func readerAgreesWithTreeLookupsOnEveryRecordedEvent(file: String) throws {
        var decoder = SSEDecoder()
        let events = decoder.feed(try AnthropicTestSupport.streamBody(file)) + decoder.finish()
        #expect(!events.isEmpty)
        for event in events where !event.data.isEmpty { try Self.expectSameEvent(event.data) }
    }

    @Test(arguments: [
        #"{"index":0,"delta":{"text":"a","type":"text_delta"},"type":"content_block_delta"}"#,  // type last
        #"{"type":"x","type":"message_stop","index":1,"index":2}"#,  // first occurrence wins
        #"{"type":5,"index":"1","content_block":5,"delta":[1],"usage":"u","message":7}"#,  // wrong types read as absent
        #"{"type":"content_block_start","index":1.0,"content_block":{"type":"tool_use","input":{"a":[1,{"b":null}]},"input":{}}}"#,
        #"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","input":[1]}}"#,
        #"{"type":"message_start","message":{"usage":{"input_tokens":"3","input_tokens":4,"output_tokens":2.0,"cache_read_input_tokens":1e2}}}"#,
        #"{"type":"error","error":{"type":"overloaded_error","message":"m"},"error":7}"#,
        #"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_reason":"x"},"usage":{"output_tokens":3}}"#,
        #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"caf\u00e9 \ud83d\ude00 \"q\""}}"#,
        "[1]", #""x""#, "null", "{}",
    ])
    func readerAgreesWithTreeLookupsOnOddShapes(_ text: String) throws {
        try Self.expectSameEvent(text)
    }

    @Test(arguments: [#"{"type":"ping","x":1-+e}"#, #"{"type":"message_stop"} junk"#, #"{"type":"ping","x":"\q"}"#, "{"])
    func invalidJSONIsRejected(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { _ = try Self.read(text) }
    }
}
