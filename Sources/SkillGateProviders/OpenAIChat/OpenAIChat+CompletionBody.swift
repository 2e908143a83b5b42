import SkillGateCore

/// The parts of a `chat.completion` body that `parseCompletion` uses, read from the JSON bytes in one
/// pass with a `JSONCursor` (everything else is skipped but still checked by Core's one grammar), so no
/// `JSONValue` tree is built for the answer every non-streaming request waits for.
///
/// Reads what a lookup in the tree reads: a key that occurs twice counts with its first occurrence,
/// members of an unexpected type count as absent, and the choice is the first whose `index` is 0 (an
/// element without one, or that is not an object, counts as index 0), else the first.
struct OpenAIChatCompletionBody {
    struct Message {
        /// `reasoning_content`, else `reasoning`, when it is a string (a present `reasoning_content` of
        /// another type hides `reasoning`, as `??` over the tree does).
        var reasoning: String?
        var content = ""
        var refusal: String?
        var toolCalls: [ToolCall] = []
        /// The legacy `function_call` object, when there is one.
        var functionCall: ToolCall?
    }

    struct Choice {
        var index = 0
        /// `nil` when the choice has no `message` object.
        var message: Message?
        var finishReason: String?
    }

    /// `false` when the body is not an object (so it has no `choices`).
    var isObject = true
    /// The body has a non-null `error` member (the caller maps it from the tree).
    var isError = false
    var id: String?
    var model: String?
    /// `nil` when there is no `choices` array.
    var choices: [Choice]?
    var usage: Usage?

    /// The choice `parseCompletion` answers with.
    var chosen: Choice? { choices.flatMap { all in all.first { $0.index == 0 } ?? all.first } }

    /// Reads a body; throws when the bytes are not one JSON document.
    static func read(_ bytes: [UInt8]) throws(JSONSyntaxError) -> OpenAIChatCompletionBody {
        var body = OpenAIChatCompletionBody()
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in
            try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) in try body.read(&c) }
        }
        return body
    }

    private mutating func read(_ cursor: inout JSONCursor) throws(JSONSyntaxError) {
        var seen = FirstOccurrence()
        isObject = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "id" where seen.first(0): id = try c.readString()
            case "model" where seen.first(1): model = try c.readString()
            case "error" where seen.first(2): isError = c.kind != .null
            case "usage" where seen.first(3): usage = try Self.readUsage(&c)
            case "choices" where seen.first(4):
                var all: [Choice] = []
                if try c.readArray({ (c) throws(JSONSyntaxError) in all.append(try Self.readChoice(&c)) }) { choices = all }
            default: break
            }
        }
    }

    private static func readChoice(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> Choice {
        var choice = Choice()
        var seen = FirstOccurrence()
        _ = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "index" where seen.first(0): choice.index = try c.readInt() ?? 0
            case "finish_reason" where seen.first(1): choice.finishReason = try c.readString()
            case "message" where seen.first(2): choice.message = try readMessage(&c)
            default: break
            }
        }
        return choice
    }

    /// A `message` object (`nil` for any other value).
    private static func readMessage(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> Message? {
        var message = Message()
        var seen = FirstOccurrence()
        var reasoningContent: String??
        var reasoning: String?
        let isObject = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "reasoning_content" where seen.first(0): reasoningContent = .some(try c.readString())
            case "reasoning" where seen.first(1): reasoning = try c.readString()
            case "content" where seen.first(2):
                // A string, or from some compatible servers an array of text parts.
                message.content = c.kind == .string ? (try c.readString() ?? "") : OpenAIChatFormat.contentText(try c.readValue())
            case "refusal" where seen.first(3): message.refusal = try c.readString()
            case "tool_calls" where seen.first(4):
                var calls: [ToolCall] = []
                _ = try c.readArray { (c) throws(JSONSyntaxError) in calls.append(try readToolCall(&c, position: calls.count)) }
                message.toolCalls = calls
            case "function_call" where seen.first(5):
                var call = ToolCall(id: "call_0", name: "", arguments: "")
                if try readFunction(&c, into: &call) {
                    if call.arguments.isEmpty { call.arguments = "{}" }  // as for `tool_calls` (decision 0112)
                    message.functionCall = call
                }
            default: break
            }
        }
        guard isObject else { return nil }
        message.reasoning = reasoningContent ?? reasoning
        return message
    }

    /// A `tool_calls` element as the tree reads it: any element is a call; a missing `id` is `call_<position>`.
    private static func readToolCall(_ cursor: inout JSONCursor, position: Int) throws(JSONSyntaxError) -> ToolCall {
        var call = ToolCall(id: "call_\(position)", name: "", arguments: "")
        var seen = FirstOccurrence()
        _ = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "id" where seen.first(0): if let id = try c.readString() { call.id = id }
            case "function" where seen.first(1): _ = try readFunction(&c, into: &call)
            default: break
            }
        }
        // A call without arguments (`""` or none) has the arguments `"{}"`, as from every other upstream, so each
        // client reads JSON (decision 0112).
        if call.arguments.isEmpty { call.arguments = "{}" }
        return call
    }

    /// `name` and `arguments` of a `function` (or legacy `function_call`) object; `false` for any other value.
    private static func readFunction(_ cursor: inout JSONCursor, into call: inout ToolCall) throws(JSONSyntaxError) -> Bool {
        var seen = FirstOccurrence()
        return try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "name" where seen.first(0): call.name = try c.readString() ?? ""
            case "arguments" where seen.first(1):
                // Some compatible servers send the arguments as an object.
                call.arguments = c.kind == .string ? (try c.readString() ?? "") : OpenAIChatFormat.argumentsText(try c.readValue())
            default: break
            }
        }
    }
}

extension OpenAIChatCompletionBody {
    /// `usage` as `OpenAIChatFormat.usage(wire:)` reads it from the tree; `nil` when it is not an object.
    static func readUsage(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> Usage? {
        var usage = Usage()
        var cacheHit: Int?
        var cached: Int?
        var seen = FirstOccurrence()
        let isObject = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "prompt_tokens" where seen.first(0): usage.inputTokens = try c.readInt() ?? 0
            case "completion_tokens" where seen.first(1): usage.outputTokens = try c.readInt() ?? 0
            case "prompt_cache_hit_tokens" where seen.first(2): cacheHit = try c.readInt()
            case "prompt_tokens_details" where seen.first(3):
                var inner = FirstOccurrence()
                _ = try c.readObject { (c, key) throws(JSONSyntaxError) in
                    if key == "cached_tokens", inner.first(0) { cached = try c.readInt() }
                }
            case "completion_tokens_details" where seen.first(4):
                var inner = FirstOccurrence()
                _ = try c.readObject { (c, key) throws(JSONSyntaxError) in
                    if key == "reasoning_tokens", inner.first(0) { usage.reasoningTokens = try c.readInt() ?? 0 }
                }
            default: break
            }
        }
        guard isObject else { return nil }
        usage.cachedInputTokens = cached ?? cacheHit ?? 0
        return usage
    }
}

/// Which of up to 64 known keys an object has had, so only a key's first occurrence counts.
private struct FirstOccurrence {
    private var bits: UInt64 = 0

    /// Whether key number `n` is seen for the first time (and marks it seen).
    mutating func first(_ n: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(n)
        defer { bits |= bit }
        return bits & bit == 0
    }
}
