import SkillGateCore

/// The fields of one Anthropic Messages stream event that the stream translator uses, read from
/// the event's JSON bytes in one pass with a `JSONCursor`: everything else is skipped (but still
/// checked), so no `JSONValue` tree is built. Which fields matter depends on `type`, which need
/// not come first, so every field any event type uses is read.
///
/// A key that occurs twice counts with its first occurrence, and a member of an unexpected type
/// reads as absent, as lookups in a tree would have it. An `error` member is kept as a `JSONValue`.
struct AnthropicStreamEvent {
    /// A `content_block` (of `content_block_start`) or a `delta` (of `content_block_delta` and
    /// `message_delta`): one shape serves both, as a delta carries the changing fields of a block.
    struct Block {
        var type: String?
        var text: String?
        var thinking: String?
        var signature: String?
        /// `redacted_thinking` data.
        var data: String?
        var id: String?
        var name: String?
        /// A `tool_use` block's `input`, when it is an object.
        var input: JSONObject?
        /// An `input_json_delta` fragment.
        var partialJSON: String?
        /// `message_delta`'s stop reason.
        var stopReason: String?

        fileprivate mutating func read(_ cursor: inout JSONCursor) throws(JSONSyntaxError) {
            var seen = JSONSeenFields<Field>()
            _ = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
                switch key {
                case "type" where seen.first(.type): type = try c.readString()
                case "text" where seen.first(.text): text = try c.readString()
                case "thinking" where seen.first(.thinking): thinking = try c.readString()
                case "signature" where seen.first(.signature): signature = try c.readString()
                case "data" where seen.first(.data): data = try c.readString()
                case "id" where seen.first(.id): id = try c.readString()
                case "name" where seen.first(.name): name = try c.readString()
                case "input" where seen.first(.input): input = c.kind == .object ? try c.readValue().objectValue : nil
                case "partial_json" where seen.first(.partialJSON): partialJSON = try c.readString()
                case "stop_reason" where seen.first(.stopReason): stopReason = try c.readString()
                default: break
                }
            }
        }
    }

    var type: String?
    var index: Int?
    /// `message.id`, `message.model` and `message.usage` of `message_start`.
    var messageId: String?
    var messageModel: String?
    var messageUsage = AnthropicUsageCounts()
    /// Present when the event has a `content_block` member (of any type).
    var contentBlock: Block?
    /// Present when the event has a `delta` member (of any type).
    var delta: Block?
    var usage = AnthropicUsageCounts()
    var error: JSONValue?

    /// Reads an event's data into this empty event (in place: the event is large enough for
    /// copies to show); throws when the data is not one JSON document. Data that is JSON but not
    /// an object reads as an event without fields.
    mutating func read(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) {
        try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) in try readEvent(&c) }
    }

    private mutating func readEvent(_ cursor: inout JSONCursor) throws(JSONSyntaxError) {
        var seen = JSONSeenFields<Field>()
        _ = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "type" where seen.first(.type): type = try c.readString()
            case "index" where seen.first(.index): index = try c.readInt()
            case "message" where seen.first(.message): try readMessage(&c)
            case "content_block" where seen.first(.contentBlock):
                contentBlock = Block()
                try contentBlock!.read(&c)
            case "delta" where seen.first(.delta):
                delta = Block()
                try delta!.read(&c)
            case "usage" where seen.first(.usage): try usage.read(&c)
            case "error" where seen.first(.error): error = try c.readValue()
            default: break
            }
        }
    }

    private mutating func readMessage(_ cursor: inout JSONCursor) throws(JSONSyntaxError) {
        var seen = JSONSeenFields<Field>()
        _ = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "id" where seen.first(.id): messageId = try c.readString()
            case "model" where seen.first(.model): messageModel = try c.readString()
            case "usage" where seen.first(.usage): try messageUsage.read(&c)
            default: break
            }
        }
    }

    /// The keys this reader reads, for `JSONSeenFields`.
    fileprivate enum Field: Int {
        case type, index, message, contentBlock, delta, usage, error
        case id, model, text, thinking, signature, data, name, input, partialJSON, stopReason
        case inputTokens, outputTokens, cacheRead, cacheCreation
    }
}

extension AnthropicUsageCounts {
    /// Reads a `usage` object's counters into these (none when it is not an object).
    fileprivate mutating func read(_ cursor: inout JSONCursor) throws(JSONSyntaxError) {
        var seen = JSONSeenFields<AnthropicStreamEvent.Field>()
        _ = try cursor.readObject { (c, key) throws(JSONSyntaxError) in
            switch key {
            case "input_tokens" where seen.first(.inputTokens): input = try c.readInt()
            case "output_tokens" where seen.first(.outputTokens): output = try c.readInt()
            case "cache_read_input_tokens" where seen.first(.cacheRead): cacheRead = try c.readInt()
            case "cache_creation_input_tokens" where seen.first(.cacheCreation): cacheCreation = try c.readInt()
            default: break
            }
        }
    }
}
