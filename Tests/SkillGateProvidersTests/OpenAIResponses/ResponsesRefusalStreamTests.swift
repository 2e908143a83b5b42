import Testing
import Synchronization
import SkillGateCore
@testable import SkillGateProviders

/// A model's refusal streamed to a Responses client (decision 0114): a message whose part is a `refusal` part, filled by
/// `response.refusal.delta` and closed by `response.refusal.done`, never `output_text`; `response.completed` holds the
/// items a whole answer holds, and the stored answer is the whole answer.
@Suite struct ResponsesRefusalStreamTests {
    typealias Support = ResponsesStreamEncoderTests

    static let refusal: [ChatStreamEvent] = [
        .start(id: "chatcmpl-up", model: "gpt"), .refusalDelta("I can't"), .refusalDelta(" help."), .finish(.refusal),
        .usage(Usage(inputTokens: 3, outputTokens: 2)),
    ]
    static let whole = ChatResponse(id: "chatcmpl-up", model: "gpt", content: [.text("I can't help.")], finishReason: .refusal,
                                    usage: Usage(inputTokens: 3, outputTokens: 2))

    @Test func aRefusalStreamsAsARefusalPart() throws {
        let events = try Support.events(Support.run(Self.refusal))
        #expect(events.map(\.name) == [
            "response.created", "response.in_progress",
            "response.output_item.added", "response.content_part.added", "response.refusal.delta", "response.refusal.delta",
            "response.refusal.done", "response.content_part.done", "response.output_item.done",
            "response.completed",
        ])
        for (i, e) in events.enumerated() {
            #expect(e.data["type"] == .string(e.name) && e.data["sequence_number"] == .int(i))
        }
        let added = events[3].data, delta = events[4].data, done = events[6].data, partDone = events[7].data
        #expect(events[2].data["item"]?["content"] == [])
        #expect(added["part"] == ["type": "refusal", "refusal": ""])
        #expect(delta["item_id"] == "msg_s1_0" && delta["output_index"] == 0 && delta["content_index"] == 0 && delta["delta"] == "I can't")
        #expect(done["refusal"] == "I can't help." && done["item_id"] == "msg_s1_0" && done["content_index"] == 0)
        #expect(partDone["part"] == ["type": "refusal", "refusal": "I can't help."])
        #expect(events[8].data["item"]?["content"] == [["type": "refusal", "refusal": "I can't help."]])
    }

    /// `response.completed` holds what the whole answer's body holds.
    @Test func theCompletedResponseHoldsTheWholeAnswersOutput() throws {
        let completed = try #require(try Support.events(Support.run(Self.refusal)).last?.data["response"])
        let whole = try JSONValue.parse(OpenAIResponsesFormat.responseBody(Self.whole, object: Support.object))
        #expect(completed["output"] == whole["output"])
        #expect(completed["status"] == whole["status"] && completed["status"] == "completed")
    }

    /// What the archive stores (`store`) is the whole answer, refusal and all.
    @Test func theStoredAnswerIsTheWholeAnswer() {
        let stored = Mutex<ChatResponse?>(nil)
        _ = Support.run(Self.refusal) { response, _ in stored.locked { $0 = response } }
        #expect(stored.locked { $0 } == Self.whole)
    }

    /// Text and then refusal text (a compatible server may send both): each in a message of its own, the text as
    /// `output_text`.
    @Test func textBeforeARefusalKeepsItsOwnMessage() throws {
        let events = try Support.events(Support.run([.start(id: "c", model: "m"), .textDelta("Note."), .refusalDelta("No."), .finish(.refusal)]))
        let names = events.map(\.name)
        #expect(names.contains("response.output_text.delta") && names.contains("response.refusal.delta"))
        let output = try #require(events.last?.data["response"]?["output"]?.arrayValue)
        #expect(output.map { $0["content"]?.arrayValue?.first?["type"] } == ["output_text", "refusal"])
    }
}
