import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// `GeminiChunk.read` walks the JSON once with a cursor; it must read the same fields as looking
/// them up in the parsed `JSONValue` (first occurrence of a repeated key, any type mismatch giving
/// `nil`), and reject what the parser rejects with the parser's error.
@Suite struct GeminiChunkTests {
    /// The chunk as lookups in the parsed value would read it (the reference for the cursor reader).
    static func lookedUp(_ v: JSONValue) -> GeminiChunk {
        var c = GeminiChunk()
        guard v.objectValue != nil else { c.notAnObject = v.typeDescription; return c }
        if let e = v["error"], e.objectValue != nil { c.error = e }
        c.responseId = v["responseId"]?.stringValue
        c.modelVersion = v["modelVersion"]?.stringValue
        c.blockReason = v["promptFeedback"]?["blockReason"]?.stringValue
        c.hasBlockReason = v["promptFeedback"]?["blockReason"] != nil
        if let m = v["usageMetadata"] {
            c.usage = GeminiChunkInterpreter.usage(
                prompt: m["promptTokenCount"]?.intValue, candidates: m["candidatesTokenCount"]?.intValue,
                thoughts: m["thoughtsTokenCount"]?.intValue, toolUsePrompt: m["toolUsePromptTokenCount"]?.intValue,
                cached: m["cachedContentTokenCount"]?.intValue)
        }
        c.hasCandidates = !(v["candidates"]?.arrayValue?.isEmpty ?? true)
        guard let candidate = v["candidates"]?.arrayValue?.first else { return c }
        c.finishReason = candidate["finishReason"]?.stringValue
        for p in candidate["content"]?["parts"]?.arrayValue ?? [] {
            var part = GeminiChunk.Part(thoughtSignature: p["thoughtSignature"]?.stringValue,
                                        text: p["text"]?.stringValue, thought: p["thought"]?.boolValue)
            if let f = p["functionCall"] {
                part.functionCall = .init(hasName: f["name"] != nil, name: f["name"]?.stringValue, id: f["id"]?.stringValue,
                                          args: f["args"]?.objectValue, partialArgs: f["partialArgs"],
                                          willContinue: f["willContinue"]?.boolValue)
            }
            c.parts.append(part)
        }
        return c
    }

    static func read(_ bytes: [UInt8]) -> Result<GeminiChunk, JSONSyntaxError> {
        bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) in
                try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) in try GeminiChunk.read(&c) }
            }
        }
    }

    static func expectSameAsLookups(_ bytes: [UInt8], _ note: String) {
        let parsed = Result { () throws(JSONSyntaxError) in try JSONValue.parse(bytes) }
        #expect(read(bytes) == parsed.map(lookedUp), "\(note)")
    }

    static let recordings = [
        "google-text.chunks.txt", "google-reasoning.chunks.txt", "google-tool-call.chunks.txt",
        "google-stream-no-args-tool-call.chunks.txt", "googleai-streaming-failure-prompt-blocked-safety.txt",
        "googleai-streaming-success-thinking-function-call-thought-summary-signature.txt",
        "test_google_streaming_tool_call_thought_signature.0.response.sse",
        "test_google_streaming_tool_call_thought_signature.1.response.sse", "vertexai-streaming-failure-error-mid-stream.txt",
    ]

    /// The `data:` payloads of a recorded stream.
    static func payloads(_ file: String) throws -> [[UInt8]] {
        var decoder = SSEDecoder()
        return (decoder.feed(try GeminiTest.streamBody(file)) + decoder.finish()).map { Array($0.data.utf8) }
    }

    @Test(arguments: recordings)
    func readsEachRecordedChunkAsTheLookupsDo(_ file: String) throws {
        let payloads = try Self.payloads(file)
        #expect(!payloads.isEmpty)
        for (i, payload) in payloads.enumerated() {
            Self.expectSameAsLookups(payload, "\(file) chunk \(i)")
            // Cut-off and damaged copies: the same error as the parser, or the same fields.
            for cut in stride(from: 0, to: payload.count, by: max(1, payload.count / 40)) {
                Self.expectSameAsLookups(Array(payload[..<cut]), "\(file) chunk \(i) cut at \(cut)")
                var damaged = payload
                damaged[cut] = [UInt8(ascii: "\""), UInt8(ascii: "}"), UInt8(ascii: "1"), 0xFF][cut % 4]
                Self.expectSameAsLookups(damaged, "\(file) chunk \(i) damaged at \(cut)")
            }
        }
    }

    @Test(arguments: [
        #"{"responseId":"a","responseId":"b","candidates":[{"content":{"parts":[{"text":"x","text":"y"}]}}],"candidates":[]}"#,
        #"{"candidates":[{"content":{"parts":[{"functionCall":null},{"functionCall":{"name":"f","args":[1]}},5,{"thought":"yes","text":7}]},"finishReason":1}]}"#,
        #"{"candidates":[{"content":{"parts":[{"functionCall":{"name":null,"partialArgs":[{"jsonPath":"$.a"}],"willContinue":1}}]}}]}"#,
        #"{"cand\u0069dates":[{"content":{"parts":[{"text":"\u00e9\n"}]},"finishReason":"MAX_TOKENS"}],"usageMetadata":{"promptTokenCount":1.0,"thoughtsTokenCount":"x"}}"#,
        #"{"usageMetadata":{"trafficType":"ON_DEMAND"},"promptFeedback":{"blockReason":null},"modelVersion":3}"#,
        #"{"error":{"code":400,"message":"bad"},"error":{"code":500}}"#, #"{"error":1,"error":{"code":500}}"#,
        #"{"candidates":{}, "usageMetadata":[], "promptFeedback":"x"}"#, #"{"candidates":[1,{"content":{}}]}"#,
        "[]", "\"x\"", "null", "{}",
    ])
    func readsOddShapesAsTheLookupsDo(_ text: String) {
        Self.expectSameAsLookups(Array(text.utf8), text)
    }

    @Test func aStreamChunkThatIsNotJSONNamesTheParsersError() throws {
        let payload = #"{"candidates":[{"content":{"parts":[{"text":"Hi"}]}}],"usageMetadata":{"a":[1,}}"#
        guard case .failure(let parseError) = Result(catching: { () throws(JSONSyntaxError) in try JSONValue.parse(payload) }) else {
            Issue.record("the payload must be invalid"); return
        }
        let body = Array("data: \(payload)\n\n".utf8)
        for byteByByte in [false, true] {
            guard case .failure(let error) = GeminiTest.run(body, byteByByte: byteByByte) else { Issue.record("accepted"); continue }
            #expect(error.message.contains("not valid JSON (\(parseError))"))
        }
    }
}
