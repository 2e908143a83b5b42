import Testing
import SkillGateCore

/// A stream folds into the answer it would have been whole: text and reasoning deltas join, interleaved tool calls
/// keep their own arguments and signatures, and a block is never changed through another one that shares its text.
@Suite struct ChatResponseAccumulatorTests {
    @Test func deltasJoinIntoTheWholeAnswer() {
        var acc = ChatResponseAccumulator()
        let events: [ChatStreamEvent] = [
            .start(id: "r1", model: "m"),
            .thinkingDelta("Let me "), .thinkingDelta("think é."), .thinkingSignature("sig"), .thinkingSignature("2"),
            .textDelta("Hel"), .textDelta("lo "), .textDelta("wörld 🎉"),
            .toolCallStart(ordinal: 0, id: "c0", name: "a"), .toolCallStart(ordinal: 1, id: "c1", name: "b"),
            .toolCallArgumentsDelta(ordinal: 0, fragment: #"{"x":"#), .toolCallArgumentsDelta(ordinal: 1, fragment: "{}"),
            .toolCallArgumentsDelta(ordinal: 0, fragment: "1}"), .toolCallSignature(ordinal: 1, signature: "gs"),
            .toolCallEnd(ordinal: 0), .toolCallEnd(ordinal: 1),
            .redactedThinking("opaque"), .thinkingDelta("Again."),
            .textDelta("Done"), .textDelta("."),
            .finish(.toolCalls), .usage(Usage(inputTokens: 3, outputTokens: 4)),
        ]
        var snapshots: [ChatResponse] = []
        for event in events {
            acc.apply(event)
            snapshots.append(acc.response)
        }
        #expect(acc.response == ChatResponse(id: "r1", model: "m", content: [
            .thinking(Thinking(text: "Let me think é.", signature: "sig2")),
            .text("Hello wörld 🎉"),
            .toolCall(ToolCall(id: "c0", name: "a", arguments: #"{"x":1}"#)),
            .toolCall(ToolCall(id: "c1", name: "b", arguments: "{}", signature: "gs")),
            .thinking(Thinking(text: "", redactedData: "opaque")),
            .thinking(Thinking(text: "Again.")),
            .text("Done."),
        ], finishReason: .toolCalls, usage: Usage(inputTokens: 3, outputTokens: 4)))
        // Earlier snapshots were not changed by later appends (they share nothing that is appended to in place).
        #expect(snapshots[5].content == [.thinking(Thinking(text: "Let me think é.", signature: "sig2")), .text("Hel")])
        #expect(snapshots[10].content.last == .toolCall(ToolCall(id: "c1", name: "b", arguments: "")))
        #expect(snapshots[11].content[2] == .toolCall(ToolCall(id: "c0", name: "a", arguments: #"{"x":"#)))
    }

    /// Refusal pieces fold into text, as a whole answer holds a refusal (the finish reason says it is one; decision 0114).
    @Test func refusalPiecesJoinIntoTheAnswersText() {
        var acc = ChatResponseAccumulator()
        for event: ChatStreamEvent in [.start(id: "r", model: "m"), .refusalDelta("I can't"), .refusalDelta(" help."), .finish(.refusal)] {
            acc.apply(event)
        }
        #expect(acc.response == ChatResponse(id: "r", model: "m", content: [.text("I can't help.")], finishReason: .refusal))
    }
}
