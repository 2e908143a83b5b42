import SkillGateCore

/// What the router knows about a task, read from the `ChatRequest` itself.
///
/// Size figures cover the whole conversation; markers and code fences are read from the latest
/// user message that has text (the task being asked), so a long system prompt that says
/// "analyse" does not send every request to the strong tier. A task longer than
/// `RouterInput.textWindow` is read through that window.
public struct TaskFeatures: Sendable, Hashable {
    /// Estimated prompt tokens: UTF-8 bytes of all messages and tool declarations / 4 (≈ 4 bytes a
    /// token in English, ≈ 0.75 tokens a CJK character), plus 85 per image.
    public var estimatedTokens = 0
    /// Messages other than system messages (conversation depth).
    public var messages = 0
    /// Tools the client offers the model.
    public var toolsOffered = 0
    /// Whether the last message carries tool results (the model is answering a tool round trip).
    public var answersToolResult = false
    /// Markers and code fences found in the task.
    public var scan = MarkerScan()
    /// Whether structured output (`response_format` json_object / json_schema) was requested.
    public var structuredOutput = false
    /// The requested upper bound on generated tokens.
    public var maxTokens: Int?
    /// Whether reasoning ("thinking") was requested.
    public var thinking = false

    public init() {}

    /// Fenced code blocks in the task.
    public var codeBlocks: Int { scan.codeBlocks }

    /// Extracts the features: one pass over the task's text, O(1) per other message (UTF-8 counts
    /// of native strings are stored, not computed).
    public init(request: ChatRequest) {
        var bytes = 0
        var task: Int?
        for (index, message) in request.messages.enumerated() {
            if message.role != .system { messages += 1 }
            bytes += UsageEstimate.inputBytes(of: message)
            let hasText = message.content.contains { if case .text(let t) = $0 { !t.isEmpty } else { false } }
            if message.role == .user && hasText { task = index }
        }
        for tool in request.tools {
            bytes += tool.name.utf8.count + (tool.description?.utf8.count ?? 0) + UsageEstimate.toolDeclarationBytes
        }
        estimatedTokens = UsageEstimate.tokens(bytes: bytes)
        toolsOffered = request.tools.count
        if let last = request.messages.last {
            answersToolResult = last.role == .tool || last.content.contains { $0.toolResult != nil }
        }
        if let task {
            // Block by block; a task longer than the router's window as the window of its whole text (decision 0078).
            let content = request.messages[task].content, window = RouterInput.textWindow
            var textBytes = 0
            for block in content { if case .text(let t) = block { textBytes += t.utf8.count } }
            if textBytes <= window.headBytes + window.tailBytes {
                for block in content { if case .text(let t) = block { scan.scan(t) } }
            } else {
                scan.scan(window.apply(content.compactMap(\.text).joined()))
            }
        }
        if let format = request.responseFormat?["type"]?.stringValue {
            structuredOutput = format == "json_object" || format == "json_schema"
        }
        maxTokens = request.maxTokens
        thinking = request.thinking?.enabled ?? false
    }
}
