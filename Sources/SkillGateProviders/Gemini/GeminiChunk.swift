import SkillGateCore

/// The fields of one `GenerateContentResponse` that `GeminiChunkInterpreter` uses, read from the
/// JSON bytes in one pass with a `JSONCursor`: everything else is skipped (but still checked), so
/// no `JSONValue` tree is built. Tool-call `args` and `partialArgs`, and an `error` object, are
/// kept as `JSONValue`s.
///
/// A key that occurs twice counts with its first occurrence, as a `JSONValue` lookup would have it.
struct GeminiChunk: Sendable, Equatable {
    struct FunctionCall: Sendable, Equatable {
        /// Whether the call has a `name` member at all (of any type).
        var hasName = false
        var name: String?
        var id: String?
        var args: JSONObject?
        var partialArgs: JSONValue?
        var willContinue: Bool?
    }

    struct Part: Sendable, Equatable {
        var thoughtSignature: String?
        /// Present when the part has a `functionCall` member (of any type).
        var functionCall: FunctionCall?
        var text: String?
        var thought: Bool?
    }

    /// `nil` for an object; otherwise the kind of value that came instead ("an array").
    var notAnObject: String?
    /// The `error` member, when it is an object.
    var error: JSONValue?
    var responseId: String?
    var modelVersion: String?
    /// `promptFeedback.blockReason` when it is a string; `hasBlockReason` tells whether it is there at all.
    var blockReason: String?
    var hasBlockReason = false
    /// The counts of `usageMetadata`, when it has any.
    var usage: Usage?
    /// Whether `candidates` is a non-empty array.
    var hasCandidates = false
    /// The parts of the first candidate's content.
    var parts: [Part] = []
    /// The first candidate's `finishReason`.
    var finishReason: String?

    /// Reads the value at the cursor as a chunk. Without `header`, `responseId` and `modelVersion`
    /// are skipped (a stream needs them only until it has them).
    static func read(_ cursor: inout JSONCursor, header: Bool = true) throws(JSONSyntaxError) -> GeminiChunk {
        var chunk = GeminiChunk()
        var seen = JSONSeenFields<Field>()
        let isObject = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "error" where seen.first(.error):
                let value = try c.readValue()
                if value.objectValue != nil { chunk.error = value }
            case "responseId" where header && seen.first(.responseId): chunk.responseId = try c.readString()
            case "modelVersion" where header && seen.first(.modelVersion): chunk.modelVersion = try c.readString()
            case "promptFeedback" where seen.first(.promptFeedback): try chunk.readPromptFeedback(&c)
            case "usageMetadata" where seen.first(.usageMetadata): chunk.usage = try Self.readUsage(&c)
            case "candidates" where seen.first(.candidates):
                var first = true
                _ = try c.readArray { (c) throws(JSONSyntaxError) in
                    if first { try chunk.readCandidate(&c) }
                    first = false
                }
                chunk.hasCandidates = !first
            default: break
            }
        }
        if !isObject { chunk.notAnObject = try cursor.readValue().typeDescription }
        return chunk
    }

    private mutating func readPromptFeedback(_ cursor: inout JSONCursor) throws(JSONSyntaxError) {
        _ = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            if key == "blockReason", !hasBlockReason {
                hasBlockReason = true
                blockReason = try c.readString()
            }
        }
    }

    private mutating func readCandidate(_ cursor: inout JSONCursor) throws(JSONSyntaxError) {
        var seen = JSONSeenFields<Field>()
        _ = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "content" where seen.first(.content):
                var seenParts = false
                _ = try c.readObject { (c, key) throws(JSONSyntaxError) in
                    guard key == "parts", !seenParts else { return }
                    seenParts = true
                    _ = try c.readArray { (c) throws(JSONSyntaxError) in parts.append(try Self.readPart(&c)) }
                }
            case "finishReason" where seen.first(.finishReason): finishReason = try c.readString()
            default: break
            }
        }
    }

    private static func readPart(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> Part {
        var part = Part()
        var seen = JSONSeenFields<Field>()
        _ = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "text" where seen.first(.text): part.text = try c.readString()
            case "thought" where seen.first(.thought): part.thought = try c.readBool()
            case "thoughtSignature" where seen.first(.thoughtSignature): part.thoughtSignature = try c.readString()
            case "functionCall" where seen.first(.functionCall): part.functionCall = try readFunctionCall(&c)
            default: break
            }
        }
        return part
    }

    private static func readFunctionCall(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> FunctionCall {
        var call = FunctionCall()
        var seen = JSONSeenFields<Field>()
        _ = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "name" where seen.first(.name):
                call.hasName = true
                call.name = try c.readString()
            case "id" where seen.first(.id): call.id = try c.readString()
            case "args" where seen.first(.args): call.args = try c.readValue().objectValue
            case "partialArgs" where seen.first(.partialArgs): call.partialArgs = try c.readValue()
            case "willContinue" where seen.first(.willContinue): call.willContinue = try c.readBool()
            default: break
            }
        }
        return call
    }

    /// `usageMetadata` → `Usage` (see `GeminiChunkInterpreter.usage`), or `nil` when it is not an
    /// object or carries no counts.
    private static func readUsage(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> Usage? {
        var prompt, candidates, thoughts, toolUsePrompt, cached: Int?
        var seen = JSONSeenFields<Field>()
        _ = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "promptTokenCount" where seen.first(.promptTokens): prompt = try c.readInt()
            case "candidatesTokenCount" where seen.first(.candidatesTokens): candidates = try c.readInt()
            case "thoughtsTokenCount" where seen.first(.thoughtsTokens): thoughts = try c.readInt()
            case "toolUsePromptTokenCount" where seen.first(.toolUsePromptTokens): toolUsePrompt = try c.readInt()
            case "cachedContentTokenCount" where seen.first(.cachedTokens): cached = try c.readInt()
            default: break
            }
        }
        return GeminiChunkInterpreter.usage(prompt: prompt, candidates: candidates, thoughts: thoughts,
                                            toolUsePrompt: toolUsePrompt, cached: cached)
    }

    /// The keys this reader reads, for `JSONSeenFields` (only the first occurrence of each is read).
    private enum Field: Int {
        case error, responseId, modelVersion, promptFeedback, usageMetadata, candidates
        case content, finishReason, text, thought, thoughtSignature, functionCall
        case name, id, args, partialArgs, willContinue
        case promptTokens, candidatesTokens, thoughtsTokens, toolUsePromptTokens, cachedTokens
    }
}
