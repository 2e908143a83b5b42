import SkillGateCore

/// A conversation as Responses input items, for the gateway's store of responses
/// (`previous_response_id`): the same grammar clients send, read back with the same decoder. Two
/// fields of the gateway's own keep what the public items have no place for: a provider's
/// signature on a tool call, and that a tool result was an error.
extension OpenAIResponsesFormat {
    /// The messages as the JSON text of an input items array. System messages become `system` messages.
    public static func conversationJSON<C: Collection>(_ messages: C) -> [UInt8] where C.Element == Message {
        var items = ResponsesItemsWriter()
        for message in messages { items.append(message) }
        return items.finish()
    }

    /// Input items written by `conversationJSON` (or sent by a client) → messages.
    public static func conversation(fromItems items: [JSONValue]) throws -> [Message] {
        try ResponsesInputItems.decode(items)
    }
}

/// Writes a stored conversation (a JSON array of Responses input items) straight to bytes, without a `JSONValue`
/// tree: `[`, the items, `]`. A continued conversation starts with the stored items of the response it continues,
/// copied as they are (`append(itemsOf:)`), so a chain of responses does not write its history again each turn.
///
/// The items, by message:
/// - system and user: one `message` (`role` `system` or `user`) with `input_text` and `input_image` parts;
/// - assistant: per block, a `message` with one `output_text` part, a `reasoning` item (`summary`, and the
///   signature or `redacted:` + data in `encrypted_content`), or a `function_call` (`skillgate_signature`: the
///   provider's signature on the call, when there is one);
/// - tool: per result, a `function_call_output` whose `output` is `input_text` / `input_image` parts
///   (`skillgate_is_error: true` when the tool failed).
///
/// Read back with `OpenAIResponsesFormat.conversation(fromItems:)`: consecutive assistant items and consecutive
/// outputs form one message again, as they do in a client's request.
///
/// A stored response's conversation is written by `ResponsesStoredConversation` (decision 0138): the request's items as
/// the client sent them and the answer's as its Response object shows them, each with its id (`append(item:id:)`,
/// `append(itemBytes:)`); the items of messages (`append(_:)`) are what responses stored before it hold.
public struct ResponsesItemsWriter: Sendable {
    private var out: [UInt8]
    private var empty = true

    /// An empty array; `capacity` is a guess of the bytes to come.
    public init(capacity: Int = 1024) {
        out = []
        out.reserveCapacity(capacity)
        out.append(UInt8(ascii: "["))
    }

    /// Appends the items of `json`, the JSON text of an items array (a stored conversation): its bytes between the
    /// brackets, unchanged. Returns false, appending nothing, when `json` is not an array's text.
    @discardableResult
    public mutating func append(itemsOf json: [UInt8]) -> Bool {
        guard let inner = Self.itemsBetweenBrackets(json) else { return false }
        guard !inner.isEmpty else { return true }
        comma()
        out.append(contentsOf: json[inner])
        return true
    }

    /// Appends `item` (an input item as a client sent it) with `id` as its first member, in place of any `id` it had.
    public mutating func append(item: JSONObject, id: String) {
        comma()
        out += #"{"id":"#
        JSONValue.writeString(id, to: &out)
        for member in item where member.key != "id" {
            out.append(UInt8(ascii: ","))
            JSONValue.writeString(member.key, to: &out)
            out.append(UInt8(ascii: ":"))
            member.value.write(to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends one item already written as JSON (an output item of a Response object), as its bytes are.
    public mutating func append<Bytes: Collection<UInt8>>(itemBytes: Bytes) {
        comma()
        out.append(contentsOf: itemBytes)
    }

    /// Appends the items of one message.
    public mutating func append(_ message: Message) {
        switch message.role {
        case .system, .user:
            comma()
            out += message.role == .system ? #"{"type":"message","role":"system","content":["#.utf8
                : #"{"type":"message","role":"user","content":["#.utf8
            parts(message.content)
            out += "]}"
        case .assistant:
            for block in message.content {
                switch block {
                case .text(let t):
                    comma()
                    out += #"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"#
                    JSONValue.writeString(t, to: &out)
                    out += "}]}"
                case .thinking(let thinking):
                    comma()
                    ResponsesOutputItems.writeReasoning(id: "rs", thinking: thinking, to: &out)
                case .toolCall(let call):
                    comma()
                    out += #"{"type":"function_call","call_id":"#
                    JSONValue.writeString(call.id, to: &out)
                    out += #","name":"#
                    JSONValue.writeString(call.name, to: &out)
                    out += #","arguments":"#
                    JSONValue.writeString(call.arguments, to: &out)
                    if let signature = call.signature {
                        out += #","skillgate_signature":"#
                        JSONValue.writeString(signature, to: &out)
                    }
                    out.append(UInt8(ascii: "}"))
                case .image, .toolResult:
                    break
                }
            }
        case .tool:
            for block in message.content {
                guard case .toolResult(let result) = block else { continue }
                comma()
                out += #"{"type":"function_call_output","call_id":"#
                JSONValue.writeString(result.callId, to: &out)
                out += #","output":["#
                parts(result.content)
                out += result.isError ? #"],"skillgate_is_error":true}"#.utf8 : "]}".utf8
            }
        }
    }

    /// The bytes written so far: taken between two appends, where the items written until then end (the array's text
    /// up to there, closed with `]`, is an array of those items).
    public var byteCount: Int { out.count }

    /// The JSON text of the array.
    public consuming func finish() -> [UInt8] {
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// `input_text` and `input_image` parts, comma-separated (other blocks have no part).
    private mutating func parts(_ content: [ContentBlock]) {
        var first = true
        for block in content {
            switch block {
            case .text(let t):
                out += first ? #"{"type":"input_text","text":"#.utf8 : #",{"type":"input_text","text":"#.utf8
                JSONValue.writeString(t, to: &out)
            case .image(let source):
                out += first ? #"{"type":"input_image","image_url":"#.utf8 : #",{"type":"input_image","image_url":"#.utf8
                JSONValue.writeString(source.urlString, to: &out)
            default:
                continue
            }
            out.append(UInt8(ascii: "}"))
            first = false
        }
    }

    private mutating func comma() {
        if empty { empty = false } else { out.append(UInt8(ascii: ",")) }
    }

    /// The range of `json` between the brackets of the array it holds (whitespace around them allowed), empty
    /// when the array is; nil when `json` does not start with `[` and end with `]`. Between two JSON values an
    /// array's text has only commas and whitespace, so a non-empty array's inner bytes are its items' list.
    static func itemsBetweenBrackets(_ json: [UInt8]) -> Range<Int>? {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
        var start = json.startIndex, end = json.endIndex
        while start < end, isSpace(json[start]) { start += 1 }
        while end > start, isSpace(json[end - 1]) { end -= 1 }
        guard end - start >= 2, json[start] == UInt8(ascii: "["), json[end - 1] == UInt8(ascii: "]") else { return nil }
        start += 1
        end -= 1
        while start < end, isSpace(json[start]) { start += 1 }
        while end > start, isSpace(json[end - 1]) { end -= 1 }
        return start..<end
    }
}
