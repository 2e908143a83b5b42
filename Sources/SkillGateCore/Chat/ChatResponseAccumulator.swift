/// Folds a stream of `ChatStreamEvent`s into the `ChatResponse` the same answer would have been
/// without streaming. Used to implement `complete` on top of `stream` and to compare the two.
public struct ChatResponseAccumulator: Sendable {
    public private(set) var id = ""
    public private(set) var model = ""
    public private(set) var content: [ContentBlock] = []
    public private(set) var finishReason: FinishReason?
    public private(set) var usage = Usage()
    /// Maps a tool-call ordinal to its block index in `content`.
    private var toolBlockIndex: [Int: Int] = [:]

    public init() {}

    /// Applies one event.
    public mutating func apply(_ event: ChatStreamEvent) {
        switch event {
        case .start(let id, let model):
            if !id.isEmpty { self.id = id }
            if !model.isEmpty { self.model = model }
        case .textDelta(let t), .refusalDelta(let t):  // a whole answer holds refusal text as text (`.refusal` says so)
            if case .text(var existing) = content.last {
                // The array lets go of the text first, so appending to it does not copy it (a long answer's deltas
                // would copy the whole text each time).
                content[content.count - 1] = .text("")
                existing += t
                content[content.count - 1] = .text(existing)
            } else {
                content.append(.text(t))
            }
        case .thinkingDelta(let t):
            if case .thinking(var th) = content.last, th.signature == nil, th.redactedData == nil {
                content[content.count - 1] = .text("")  // as for text: `th` is then the only owner of its text
                th.text += t
                content[content.count - 1] = .thinking(th)
            } else {
                content.append(.thinking(Thinking(text: t)))
            }
        case .thinkingSignature(let s):
            if case .thinking(var th) = content.last, th.redactedData == nil {
                th.signature = (th.signature ?? "") + s
                content[content.count - 1] = .thinking(th)
            } else {
                content.append(.thinking(Thinking(text: "", signature: s)))
            }
        case .redactedThinking(let data):
            content.append(.thinking(Thinking(text: "", redactedData: data)))
        case .toolCallStart(let ordinal, let id, let name):
            toolBlockIndex[ordinal] = content.count
            content.append(.toolCall(ToolCall(id: id, name: name, arguments: "")))
        case .toolCallArgumentsDelta(let ordinal, let fragment):
            updateCall(ordinal) { $0.arguments += fragment }
        case .toolCallSignature(let ordinal, let signature):
            updateCall(ordinal) { $0.signature = signature }
        case .toolCallEnd:
            break
        case .finish(let reason):
            finishReason = reason
        case .usage(let u):
            usage = u
        }
    }

    private mutating func updateCall(_ ordinal: Int, _ change: (inout ToolCall) -> Void) {
        guard let i = toolBlockIndex[ordinal], case .toolCall(var call) = content[i] else { return }
        content[i] = .text("")  // `call` is then the only owner of its arguments: appending does not copy them
        change(&call)
        content[i] = .toolCall(call)
    }

    /// The response so far. A stream that ended without a finish reason but with tool calls is
    /// reported as `.toolCalls`; without either, as `.other("missing")` so the gap stays visible.
    public var response: ChatResponse {
        let hasCalls = content.contains { $0.toolCall != nil }
        var reason = finishReason ?? (hasCalls ? .toolCalls : .other("missing"))
        if hasCalls, reason == .stop { reason = .toolCalls }
        return ChatResponse(id: id, model: model, content: content, finishReason: reason, usage: usage)
    }
}
