import SkillGateCore

/// The parts of one `chat.completion.chunk` the stream translator uses, for choice 0, read from
/// the JSON bytes in one pass with a `JSONCursor`: everything else is skipped (but still checked,
/// with Core's one grammar), so no `JSONValue` tree is built. Building one per chunk costs several
/// times more, mostly in allocations for fields nobody reads (`system_fingerprint`,
/// `obfuscation`, `logprobs`, the repeated `id`).
///
/// Members of an unexpected type are ignored, as a lookup in a tree would ignore them. A key that
/// occurs twice counts with its last occurrence, unlike the tree (first); `usage`'s members are read
/// by the same reader as a whole answer's (`OpenAIChatCompletionBody.readUsage`), first occurrence.
struct OpenAIChatChunk {
    struct ToolCallDelta {
        var index: Int?
        var id: String?
        var name: String?
        var arguments: String?
    }

    var id: String?
    var model: String?
    /// `nil` for an object; otherwise the kind of value that came instead ("an array").
    var notAnObject: String?
    /// The chunk has a non-null `error` member (the caller re-reads it in full to map it).
    var isError = false
    var usage: Usage?
    var content: String?
    var refusal: String?
    var reasoning: String?
    var toolCalls: [ToolCallDelta] = []
    var finishReason: String?
    /// The chunk has choice 0: an answer's chunk. Without it (`choices` empty, as Azure's first chunk of
    /// `prompt_filter_results` and the usage chunk are) the chunk is metadata only.
    var hasChoice = false

    /// Reads a chunk from its text. `header` asks for `id` and `model` (only needed once per stream).
    static func read(_ text: String, header: Bool) throws(JSONSyntaxError) -> OpenAIChatChunk {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in try read(buffer, header: header) }
    }

    /// Reads a chunk from its bytes; throws when they are not one JSON document.
    static func read(_ buffer: UnsafeBufferPointer<UInt8>, header: Bool) throws(JSONSyntaxError) -> OpenAIChatChunk {
        var chunk = OpenAIChatChunk()
        try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) in try chunk.read(&c, header: header) }
        return chunk
    }

    private mutating func read(_ cursor: inout JSONCursor, header: Bool) throws(JSONSyntaxError) {
        let isObject = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "id" where header: id = try c.readString()
            case "model" where header: model = try c.readString()
            case "choices": _ = try c.readArray { (c) throws(JSONSyntaxError) in try readChoice(&c) }
            case "usage": usage = try OpenAIChatCompletionBody.readUsage(&c)
            case "error": isError = c.kind != .null
            default: break
            }
        }
        if !isObject { notAnObject = try cursor.readValue().typeDescription }
    }

    /// One element of `choices`; only choice 0 (an absent `index` counts as 0) is kept.
    private mutating func readChoice(_ cursor: inout JSONCursor) throws(JSONSyntaxError) {
        var index = 0
        var choice = OpenAIChatChunk()
        let isObject = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "index": index = try c.readInt() ?? 0
            case "delta": try choice.readDelta(&c)
            case "finish_reason": choice.finishReason = try c.readString()
            default: break
            }
        }
        guard isObject, index == 0 else { return }
        hasChoice = true
        content = choice.content
        refusal = choice.refusal
        reasoning = choice.reasoning
        toolCalls = choice.toolCalls
        finishReason = choice.finishReason
    }

    private mutating func readDelta(_ cursor: inout JSONCursor) throws(JSONSyntaxError) {
        _ = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "content":
                // Some compatible servers send content parts instead of a string.
                content = c.kind == .array ? OpenAIChatFormat.contentText(try c.readValue()) : try c.readString()
            case "refusal": refusal = try c.readString()
            case "reasoning_content", "reasoning": reasoning = try c.readString() ?? reasoning
            case "tool_calls":
                _ = try c.readArray { (c) throws(JSONSyntaxError) in
                    if let call = try Self.readToolCall(&c) { toolCalls.append(call) }
                }
            default: break
            }
        }
    }

    private static func readToolCall(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> ToolCallDelta? {
        var call = ToolCallDelta()
        let isObject = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "index": call.index = try c.readInt()
            case "id": call.id = try c.readString()
            case "function":
                _ = try c.readObject { (c, key) throws(JSONSyntaxError) in
                    switch key {
                    case "name": call.name = try c.readString()
                    case "arguments":
                        // Some compatible servers send the arguments as an object.
                        call.arguments = c.kind == .string ? try c.readString() : OpenAIChatFormat.argumentsText(try c.readValue())
                    default: break
                    }
                }
            default: break
            }
        }
        return isObject ? call : nil
    }
}
