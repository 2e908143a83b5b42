import SkillGateCore

/// The parts of one `chat.completion.chunk` the stream translator uses, for choice 0.
struct OpenAIChatChunk {
    struct ToolCallDelta {
        var index: Int?
        var id: String?
        var name: String?
        var arguments: String?
    }

    var id: String?
    var model: String?
    /// The chunk is an `{"error":...}` object (the caller re-reads it in full to map it).
    var isError = false
    var usage: Usage?
    var content: String?
    var refusal: String?
    var reasoning: String?
    var toolCalls: [ToolCallDelta] = []
    var finishReason: String?

    /// Reads a chunk. `header` asks for `id` and `model` (only needed once per stream).
    /// Throws a `ChunkSyntaxError` (or `JSONSyntaxError`) when the text is not valid JSON.
    static func read(_ text: String, header: Bool) throws -> OpenAIChatChunk {
        var text = text
        return try text.withUTF8 { buffer in
            var scanner = OpenAIChatJSONScanner(buffer: buffer)
            return try scanner.chunk(header: header)
        }
    }
}

/// A single-pass reader over a chunk's JSON that materialises only the fields the translator
/// needs and skips (while still checking the syntax of) everything else. Building a full
/// `JSONValue` per chunk costs several times more, mostly in allocations for fields nobody reads
/// (`system_fingerprint`, `obfuscation`, `logprobs`, the repeated `id`).
struct OpenAIChatJSONScanner {
    let b: UnsafeBufferPointer<UInt8>
    var i = 0
    var depth = 0

    init(buffer: UnsafeBufferPointer<UInt8>) { b = buffer }

    mutating func chunk(header: Bool) throws -> OpenAIChatChunk {
        var c = OpenAIChatChunk()
        try object { s, key in
            switch key {
            case "id" where header: c.id = try s.stringOrSkip()
            case "model" where header: c.model = try s.stringOrSkip()
            case "choices": try s.array { s in try s.choice(into: &c) }
            case "usage": c.usage = try s.usage()
            case "error": c.isError = !(try s.isNullThenSkip())
            default: try s.skipValue()
            }
        }
        ws()
        guard i == b.count else { throw fail("unexpected content after the JSON value") }
        return c
    }

    private mutating func choice(into c: inout OpenAIChatChunk) throws {
        var index = 0
        var d = OpenAIChatChunk()
        try object { s, key in
            switch key {
            case "index": index = try s.int() ?? 0
            case "delta": try s.delta(into: &d)
            case "finish_reason": d.finishReason = try s.stringOrSkip()
            default: try s.skipValue()
            }
        }
        guard index == 0 else { return }
        c.content = d.content
        c.refusal = d.refusal
        c.reasoning = d.reasoning
        c.toolCalls = d.toolCalls
        c.finishReason = d.finishReason
    }

    private mutating func delta(into d: inout OpenAIChatChunk) throws {
        try objectOrNull { s, key in
            switch key {
            case "content":
                if s.peekIs(UInt8(ascii: "[")) {
                    d.content = OpenAIChatFormat.contentText(try s.rawValue())
                } else {
                    d.content = try s.stringOrSkip()
                }
            case "refusal": d.refusal = try s.stringOrSkip()
            case "reasoning_content", "reasoning": d.reasoning = try s.stringOrSkip() ?? d.reasoning
            case "tool_calls":
                try s.arrayOrNull { s in
                    var call = OpenAIChatChunk.ToolCallDelta()
                    try s.object { s, key in
                        switch key {
                        case "index": call.index = try s.int()
                        case "id": call.id = try s.stringOrSkip()
                        case "function":
                            try s.objectOrNull { s, key in
                                switch key {
                                case "name": call.name = try s.stringOrSkip()
                                case "arguments":
                                    call.arguments = s.peekIs(UInt8(ascii: "\"")) ? try s.string()
                                        : OpenAIChatFormat.argumentsText(try s.rawValue())
                                default: try s.skipValue()
                                }
                            }
                        default: try s.skipValue()
                        }
                    }
                    d.toolCalls.append(call)
                }
            default: try s.skipValue()
            }
        }
    }

    private mutating func usage() throws -> Usage? {
        guard !peekIs(UInt8(ascii: "n")) else { try skipValue(); return nil }
        var u = Usage()
        var cacheHit: Int?
        var cached: Int?
        try object { s, key in
            switch key {
            case "prompt_tokens": u.inputTokens = try s.int() ?? 0
            case "completion_tokens": u.outputTokens = try s.int() ?? 0
            case "prompt_cache_hit_tokens": cacheHit = try s.int()
            case "prompt_tokens_details":
                try s.objectOrNull { s, key in
                    if key == "cached_tokens" { cached = try s.int() } else { try s.skipValue() }
                }
            case "completion_tokens_details":
                try s.objectOrNull { s, key in
                    if key == "reasoning_tokens" { u.reasoningTokens = try s.int() ?? 0 } else { try s.skipValue() }
                }
            default: try s.skipValue()
            }
        }
        u.cachedInputTokens = cached ?? cacheHit ?? 0
        return u
    }
}
