import Testing
import SkillGateCore
@testable import SkillGateProviders

/// A Gemini stream's finish and usage are handed on at the chunk that ends the answer, not when the body ends (decision
/// 0160): Google's streams have no end event of their own, so an upstream that kept its body open after its last chunk
/// held the answer's finish (and the client's stream) until the idle timeout.
@Suite struct GeminiAnswerEndTests {
    /// The recorded streams whose last chunk carries the `finishReason` with `usageMetadata` (all but the blocked prompt).
    static let recorded = GeminiStreamTests.expectations.filter { $0.finish != .contentFilter }

    /// Events of `body` fed whole and byte by byte, before the body's end, and what the end adds.
    static func fed(_ body: [UInt8]) throws -> (whole: [ChatStreamEvent], bytewise: [ChatStreamEvent], atTheEnd: [ChatStreamEvent]) {
        var t = GeminiTest.translator()
        let whole = try t.feed(body)
        var b = GeminiTest.translator()
        var bytewise: [ChatStreamEvent] = []
        for byte in body { bytewise += try b.feed([byte]) }
        return (whole, bytewise, try t.finish())
    }

    /// Each recorded stream, its body not ended: the finish and the usage are there, last, and the end adds nothing.
    /// Before, the finish and the usage came only with the body's end.
    @Test(arguments: recorded)
    func theFinishAndUsageComeWithTheFinishReasonChunk(_ e: GeminiStreamExpectation) throws {
        let (whole, bytewise, atTheEnd) = try Self.fed(try GeminiTest.streamBody(e.file))
        #expect(whole.suffix(2) == [.finish(e.finish), .usage(e.usage)], "\(whole.suffix(3))")
        #expect(bytewise == whole)
        #expect(atTheEnd.isEmpty, "\(atTheEnd)")
    }

    /// Guard: the recorded Vertex stream with `STOP` on every chunk and no `usageMetadata` (as streams of 2024 were) is not
    /// ended at its first `finishReason`: its second chunk's text follows, and its end is read from the body's end (here
    /// the error Vertex sent).
    @Test func aFinishReasonWithoutUsageDoesNotEndTheAnswer() throws {
        let body = try Fixtures.bytes("gemini/vertexai-streaming-failure-error-mid-stream.txt")
        var t = GeminiTest.translator()
        let events = try t.feed(body)
        #expect(events.contains(.textDelta("First ")) && events.contains(.textDelta("Second ")))
        #expect(!events.contains { if case .finish = $0 { return true } else { return false } }, "\(events)")
        #expect(throws: GatewayError.self) { try t.finish() }
    }

    // Written by hand in the form of `test_google_streaming_tool_call_thought_signature.1.response.sse` (field order,
    // spacing, CRLF CRLF): no recording has a usage after the finish chunk.
    static func chunk(_ candidates: String?, usage: (prompt: Int, candidates: Int)?) -> String {
        var members: [String] = []
        if let candidates { members.append(#""candidates": [\#(candidates)]"#) }
        if let usage {
            members.append(#""usageMetadata": {"promptTokenCount": \#(usage.prompt),"candidatesTokenCount": \#(usage.candidates),"totalTokenCount": \#(usage.prompt + usage.candidates)}"#)
        }
        members.append(#""modelVersion": "gemini-3-pro-preview","responseId": "REVVabaiCdq4qtsPnZu96Qo""#)
        return "data: {" + members.joined(separator: ",") + "}\r\n\r\n"
    }

    static let text = #"{"content": {"parts": [{"text": "The capital of Mexico is Mexico City."}],"role": "model"},"index": 0}"#
    static let finish = #"{"content": {"parts": [{"text": ""}],"role": "model"},"finishReason": "STOP","index": 0}"#

    /// A finish chunk without usage, then a chunk of usage only: the end is handed on at the usage; a usage that changes
    /// after it is handed on as it comes, and the body's end adds only what changed since.
    @Test func aUsageAfterTheFinishChunkEndsTheAnswerThere() throws {
        var t = GeminiTest.translator()
        let answer = try t.feed(Array((Self.chunk(Self.text, usage: (55, 8)) + Self.chunk(Self.finish, usage: nil)).utf8))
        #expect(answer == [.start(id: "REVVabaiCdq4qtsPnZu96Qo", model: "gemini-3-pro-preview"),
                           .textDelta("The capital of Mexico is Mexico City.")], "no end before a usage after the finish: \(answer)")
        let usage = try t.feed(Array(Self.chunk(nil, usage: (257, 8)).utf8))
        #expect(usage == [.finish(.stop), .usage(Usage(inputTokens: 257, outputTokens: 8))])
        let same = try t.feed(Array(Self.chunk(nil, usage: (257, 8)).utf8))
        #expect(same.isEmpty, "an unchanged usage is not handed on again: \(same)")
        let changed = try t.feed(Array(Self.chunk(nil, usage: (257, 9)).utf8))
        #expect(changed == [.usage(Usage(inputTokens: 257, outputTokens: 9))])
        #expect(try t.finish().isEmpty)
    }
}
