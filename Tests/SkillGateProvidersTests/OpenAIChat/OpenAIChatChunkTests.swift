import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// The chunk reader (a `JSONCursor` reader) against the full JSON parser: same fields, same
/// verdict on bad input.
@Suite struct OpenAIChatChunkTests {
    static let streamFiles = [
        "test_parse_nothing.sse", "test_parse_max_tokens_reached.sse", "test_parse_multiple_pydantic_tools.sse",
        "test_parse_pydantic_model_multiple_choices.sse", "test_parse_pydantic_model_refusal.sse",
        "test_run_stream_sync_streams_real_model.0.response.sse", "test_run_stream_sync_streams_real_model.1.response.sse",
        "openai-text.chunks.txt",
    ]

    @Test(arguments: streamFiles)
    func readerAgreesWithTheFullParserOnEveryRecordedChunk(file: String) throws {
        var decoder = SSEDecoder()
        let events = decoder.feed(try OpenAIChatTestSupport.streamBody(file)) + decoder.finish()
        for event in events where !event.isDone {
            let chunk = try OpenAIChatChunk.read(event.data, header: true)
            let json = try JSONValue.parse(event.data)
            #expect(chunk.id == json["id"]?.stringValue)
            #expect(chunk.model == json["model"]?.stringValue)
            let choice0 = json["choices"]?.arrayValue?.first { ($0["index"]?.intValue ?? 0) == 0 }
            let delta = choice0?["delta"]
            #expect(chunk.content == delta?["content"]?.stringValue)
            #expect(chunk.refusal == delta?["refusal"]?.stringValue)
            #expect(chunk.finishReason == choice0?["finish_reason"]?.stringValue)
            let calls = delta?["tool_calls"]?.arrayValue ?? []
            #expect(chunk.toolCalls.map(\.index) == calls.map { $0["index"]?.intValue })
            #expect(chunk.toolCalls.map(\.id) == calls.map { $0["id"]?.stringValue })
            #expect(chunk.toolCalls.map(\.name) == calls.map { $0["function"]?["name"]?.stringValue })
            #expect(chunk.toolCalls.map(\.arguments) == calls.map { $0["function"]?["arguments"]?.stringValue })
            let usage = json["usage"].flatMap { $0.objectValue == nil ? nil : OpenAIChatFormat.usage(wire: $0) }
            #expect(chunk.usage == usage)
        }
    }

    @Test(arguments: [
        #"a\nb"#, #"quote \" and backslash \\ and slash \/"#, #"caf\u00e9 \u00E9"#, #"smile \ud83d\ude00"#,
        #"tab\tcr\rff\fbs\b"#, "raw UTF-8 é 😀 中文",
    ])
    func escapesDecodeLikeTheFullParser(literal: String) throws {
        let text = #"{"choices":[{"index":0,"delta":{"content":""# + literal + #""}}]}"#
        let chunk = try OpenAIChatChunk.read(text, header: false)
        let reference = try JSONValue.parse(text)["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue
        #expect(chunk.content == reference)
    }

    @Test(arguments: [
        #"{"choices":[{"index":0,"delta":{"content":"x"}}]"#,  // unterminated object
        #"{"choices":[{"index":0,"delta":{"content":"x}}]}"#,  // unterminated string
        #"{"choices":[{"index":0,"delta":{"content":nul}}]}"#,
        #"{"choices":[{"index":0 "delta":{}}]}"#,
        #"{"choices":[{"index":0,"delta":{"content":"\q"}}]}"#,
        #"{"id":"x"} trailing"#,
        #"{"usage":{"prompt_tokens":-}}"#,
        #"[1,2"#,
        #"{"choices":[{"index":0,"delta":{"content":"lone \ud800 surrogate"}}]}"#,
        #"{"choices":[{"index":0,"delta":{"content":"lone \udc00 low"}}]}"#,
        "",
        // Skipped members are checked with the same grammar as read ones (the provider-local
        // scanner this reader replaced let these through).
        #"{"created":1-+e,"choices":[]}"#, #"{"created":01,"choices":[]}"#, #"{"created":1.,"choices":[]}"#,
        #"{"created":.5,"choices":[]}"#, #"{"created":1e,"choices":[]}"#, #"{"system_fingerprint":"fp_\x","choices":[]}"#,
        #"{"obfuscation":"\u12","choices":[]}"#, #"{"obfuscation":"\ud800","choices":[]}"#,
    ])
    func malformedChunksAreRejected(text: String) {
        #expect(throws: (any Error).self) { _ = try OpenAIChatChunk.read(text, header: true) }
        #expect(throws: (any Error).self) { _ = try JSONValue.parse(text) }
    }

    @Test func unusualShapesFromCompatibleServers() throws {
        let text = #"{"choices":[{"delta":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":{"x":1}}}]},"index":0}],"usage":{"prompt_tokens":3,"completion_tokens":4,"prompt_cache_hit_tokens":2}}"#
        let chunk = try OpenAIChatChunk.read(text, header: false)
        #expect(chunk.content == "ab")
        #expect(chunk.toolCalls.first?.arguments == #"{"x":1}"#)
        #expect(chunk.usage == Usage(inputTokens: 3, outputTokens: 4, cachedInputTokens: 2))
    }

    @Test func otherChoicesAreIgnoredWhateverTheKeyOrder() throws {
        let text = #"{"choices":[{"delta":{"content":"one"},"index":1},{"delta":{"content":"zero"},"index":0,"finish_reason":"stop"}]}"#
        let chunk = try OpenAIChatChunk.read(text, header: false)
        #expect(chunk.content == "zero")
        #expect(chunk.finishReason == "stop")
    }

    @Test func membersOfAnUnexpectedTypeAreIgnoredAsATreeLookupWouldIgnoreThem() throws {
        let text = #"{"usage":5,"choices":[7,{"index":0,"delta":{"content":"a","tool_calls":[5,{"index":0,"function":7}]}},"x"]}"#
        let chunk = try OpenAIChatChunk.read(text, header: false)
        #expect(chunk.content == "a")
        #expect(chunk.usage == nil)
        #expect(chunk.toolCalls.count == 1)
        #expect(chunk.toolCalls.first?.index == 0)
        #expect(chunk.toolCalls.first?.name == nil)
    }

    @Test(arguments: [("[1,2]", "an array"), (#""x""#, "a string"), ("42", "a number"), ("null", "null")])
    func aChunkThatIsNotAnObjectSaysWhatItIs(text: String, kind: String) throws {
        #expect(try OpenAIChatChunk.read(text, header: true).notAnObject == kind)
        let e = OpenAIChatTestSupport.gatewayError {
            _ = try StreamFeeding.whole(OpenAIChatTestSupport.translator(), Array("data: \(text)\n\n".utf8))
        }
        #expect(e?.kind == .upstreamProtocol)
        #expect(e?.message.contains("is \(kind), not a JSON object") == true)
    }

    @Test func nestingIsLimitedAsEverywhereElse() throws {
        let limit = JSONValue.defaultMaxDepth
        func chunk(_ depth: Int) -> String {
            #"{"extra":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + #","choices":[]}"#
        }
        _ = try OpenAIChatChunk.read(chunk(limit - 1), header: true)
        do {
            _ = try OpenAIChatChunk.read(chunk(limit), header: true)
            Issue.record("a chunk nested past the limit was accepted")
        } catch {
            #expect(error.reason == "nesting deeper than \(limit) levels")
            #expect(error.offset == 9 + limit - 1)  // the bracket one level too deep
        }
    }
}
