import Synchronization
import SkillGateCore
@testable import SkillGateProviders

/// A text-only model for tests: streams a fixed answer in the given pieces, and records the request.
struct PromptToolsTextModel: LLMClient {
    /// The answer's text deltas, in order.
    var pieces: [String]
    var finishReason: FinishReason = .stop
    var usage = Usage(inputTokens: 11, outputTokens: 7)
    let recorder = PromptToolsRequestRecorder()

    init(_ text: String, pieceLength: Int = .max) {
        var pieces: [String] = []
        var current = ""
        for ch in text {
            current.append(ch)
            if current.count >= pieceLength { pieces.append(current); current = "" }
        }
        if !current.isEmpty { pieces.append(current) }
        self.pieces = pieces
    }

    func complete(_ request: ChatRequest) async throws -> ChatResponse {
        recorder.record(request)
        return ChatResponse(id: "resp-1", model: "text-model", content: [.text(pieces.joined())],
                            finishReason: finishReason, usage: usage)
    }

    func stream(_ request: ChatRequest) -> AsyncThrowingStream<ChatStreamEvent, any Error> {
        recorder.record(request)
        let events: [ChatStreamEvent] = [.start(id: "resp-1", model: "text-model")]
            + pieces.map(ChatStreamEvent.textDelta) + [.finish(finishReason), .usage(usage)]
        return AsyncThrowingStream { continuation in
            for event in events { continuation.yield(event) }
            continuation.finish()
        }
    }
}


/// Remembers the last request a test double received.
final class PromptToolsRequestRecorder: Sendable {
    private let last = Mutex<ChatRequest?>(nil)
    func record(_ request: ChatRequest) { last.locked { $0 = request } }
    var request: ChatRequest? { last.locked { $0 } }
}

enum PromptToolsTesting {
    static let weather = ToolDefinition(
        name: "get_weather", description: "Current weather for a city",
        parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])
    static let time = ToolDefinition(name: "current_time", description: "The current time")

    /// Events from feeding `text` to a fresh parser in pieces of `pieceLength` characters.
    static func events(_ text: String, offered: [String] = ["get_weather", "current_time"], pieceLength: Int = .max) throws -> [ChatStreamEvent] {
        var parser = PromptToolStreamParser(offeredTools: offered, idPrefix: "call_t_")
        var events: [ChatStreamEvent] = []
        for piece in PromptToolsTextModel(text, pieceLength: pieceLength).pieces { events += try parser.feed(piece) }
        return events + (try parser.finish())
    }

    /// The folded response of `events`.
    static func fold(_ events: [ChatStreamEvent]) -> ChatResponse {
        var acc = ChatResponseAccumulator()
        events.forEach { acc.apply($0) }
        return acc.response
    }

    /// Non-text events only (text deltas are split differently depending on the feeding).
    static func callEvents(_ events: [ChatStreamEvent]) -> [ChatStreamEvent] {
        events.filter { if case .textDelta = $0 { return false } else { return true } }
    }
}
