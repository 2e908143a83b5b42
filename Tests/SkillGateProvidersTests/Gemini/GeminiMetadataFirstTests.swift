import Testing
import SkillGateCore
@testable import SkillGateProviders

/// A Gemini stream whose first chunk carries only metadata (`usageMetadata`, `modelVersion`, `responseId`, as Vertex AI
/// sometimes sends first) gives no event until a chunk carries something the client would see, so the stream is not
/// committed before it has an answer: a failed answer after such a chunk still fails before the first event (and is
/// tried again), and the held chunk's usage is counted (decision 0123).
@Suite struct GeminiMetadataFirstTests {
    static let metadataOnly = #"{"usageMetadata": {"promptTokenCount": 12,"totalTokenCount": 12,"trafficType": "ON_DEMAND"},"modelVersion": "gemini-2.5-flash","createTime": "2026-12-06T16:20:11.482113Z","responseId": "r-meta"}"#
    /// The same with a candidate that has a role and no parts, which Vertex also sends.
    static let roleOnly = #"{"candidates": [{"content": {"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 12,"totalTokenCount": 12,"trafficType": "ON_DEMAND"},"modelVersion": "gemini-2.5-flash","responseId": "r-meta"}"#

    static func event(_ json: String) -> [UInt8] { Array("data: \(json)\r\n\r\n".utf8) }

    @Test(arguments: [metadataOnly, roleOnly])
    func aMetadataOnlyChunkGivesNoEvent(_ first: String) throws {
        var translator = GeminiTest.translator()
        #expect(try translator.feed(Self.event(first)).isEmpty, "nothing the client would see: no start yet")
    }

    /// Byte by byte: no event is handed out before the failure (whole, the throw takes the first chunk's events with it).
    @Test func aFailedAnswerAfterMetadataFailsBeforeTheFirstEventWithTheHeldUsage() throws {
        let body = try GeminiTest.streamBody("skillgate-metadata-then-malformed-function-call.sse")
        var translator = GeminiTest.translator()
        var events: [ChatStreamEvent] = []
        var caught: GatewayError?
        do {
            for byte in body { events += try translator.feed([byte]) }
            events += try translator.finish()
        } catch {
            caught = error as? GatewayError
        }
        #expect(events.isEmpty, "nothing went out before the failure: \(events)")
        // The failing chunk has no usageMetadata: the 2595 prompt tokens are the held metadata chunk's.
        GeminiFailedAnswerTests.expectFailedAnswer(caught, .malformedFunctionCall, raw: "MALFORMED_FUNCTION_CALL", inputTokens: 2595)
    }

    /// Fed one event at a time: the metadata chunk gives nothing, the failed chunk throws (no event was handed out).
    @Test func fedOneEventAtATimeNothingGoesOutBeforeTheFailure() throws {
        let text = String(decoding: try GeminiTest.streamBody("skillgate-metadata-then-malformed-function-call.sse"), as: UTF8.self)
        let cut = try #require(text.range(of: "\r\n\r\n")).upperBound
        var translator = GeminiTest.translator()
        #expect(try translator.feed(Array(text[..<cut].utf8)).isEmpty)
        var caught: GatewayError?
        do { _ = try translator.feed(Array(text[cut...].utf8)) } catch { caught = error as? GatewayError }
        GeminiFailedAnswerTests.expectFailedAnswer(caught, .malformedFunctionCall, raw: "MALFORMED_FUNCTION_CALL", inputTokens: 2595)
    }

    /// A good answer after the metadata starts with the held chunk's id and model, and ends with its usage when no later
    /// chunk reports one.
    @Test(arguments: [metadataOnly, roleOnly])
    func aGoodAnswerStartsAtItsFirstTextWithTheHeldHeaderAndUsage(_ first: String) throws {
        var translator = GeminiTest.translator()
        #expect(try translator.feed(Self.event(first)).isEmpty)
        let text = try translator.feed(Self.event(#"{"candidates": [{"content": {"parts": [{"text": "Paris."}],"role": "model"},"finishReason": "STOP","index": 0}]}"#))
        #expect(text == [.start(id: "r-meta", model: "gemini-2.5-flash"), .textDelta("Paris.")])
        #expect(try translator.finish() == [.finish(.stop), .usage(Usage(inputTokens: 12))])
    }

    /// A finish with no content (or a blocked prompt) is something the client sees: the stream starts there.
    @Test func aFinishWithoutContentStartsTheStream() throws {
        var translator = GeminiTest.translator()
        #expect(try translator.feed(Self.event(Self.metadataOnly)).isEmpty)
        let events = try translator.feed(Self.event(#"{"candidates": [{"finishReason": "SAFETY","index": 0}]}"#))
        #expect(events == [.start(id: "r-meta", model: "gemini-2.5-flash")])
        #expect(try translator.finish() == [.finish(.contentFilter), .usage(Usage(inputTokens: 12))])
    }

    /// Metadata, then the connection ends without an answer: a truncation error before the first event.
    @Test func metadataThenTheEndIsTruncationBeforeTheFirstEvent() throws {
        guard case .failure(let error) = GeminiTest.run(Self.event(Self.metadataOnly), byteByByte: false) else {
            Issue.record("a stream without an answer gave events")
            return
        }
        #expect(error.message.contains("ended before the answer was complete") && error.message.contains("connection was cut"), "\(error)")
    }

    /// A whole body whose candidate has no content still folds into an (empty) answer with its id and usage, as before.
    @Test func aWholeBodyWithoutContentIsStillAnAnswer() throws {
        let response = try GeminiFormat().parseResponse(Array(Self.roleOnly.utf8), deployment: GeminiTest.deployment)
        #expect(response.id == "r-meta" && response.usage == Usage(inputTokens: 12) && response.text.isEmpty)
    }
}
