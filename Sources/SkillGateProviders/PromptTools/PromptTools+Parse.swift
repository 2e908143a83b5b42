import SkillGateCore

/// Reads the tool calls out of the text a model wrote inside `<tool_call>…</tool_call>` tags
/// (or inside a ```json fence used instead of the tags).
///
/// Tolerated shapes, all seen from open models in the wild:
/// - `{"name": "f", "arguments": {...}}` — the Hermes/Qwen convention;
/// - `"arguments"` given as a JSON string holding the object (`"arguments": "{\"a\":1}"`);
/// - `"parameters"` instead of `"arguments"`; missing arguments mean `{}`;
/// - the OpenAI shape `{"type": "function", "function": {"name": ..., "arguments": ...}}`;
/// - a ```json fence inside the tags, and whitespace or stray text around the JSON object;
/// - several call objects in one tag, separated by whitespace or commas (each is a call).
enum PromptToolCallParser {
    /// A call read from the text, before it is checked against the offered tools.
    struct ParsedCall: Sendable, Hashable {
        var name: String
        /// The arguments as compact JSON object text.
        var arguments: String
    }

    /// Why text inside tool-call tags is not a usable call.
    enum Failure: Error, Sendable, Hashable {
        /// No JSON object could be found or parsed; the reason says what was wrong.
        case malformed(String)
    }

    /// Parses the body of a `<tool_call>` tag (fences and surrounding whitespace allowed) into its calls,
    /// in order: one JSON object, or several in a row separated only by whitespace or commas
    /// (`{…}\n{…}`, `[{…}, {…}]`), each of them a call. Text after the last object of the row is ignored
    /// as before; an object in the row that never closes, or that is not a call, makes the whole body
    /// malformed (decision 0111: the second object was silently dropped before).
    static func parseTagged(_ body: ArraySlice<UInt8>) -> Result<[ParsedCall], Failure> {
        guard let first = firstJSONObject(in: body) else {
            return .failure(.malformed("no complete JSON object between the tags"))
        }
        var objects = [first]
        var rest = body[first.endIndex...]
        while let next = rest.firstIndex(where: { !isSeparator($0) }), rest[next] == UInt8(ascii: "{") {
            guard let object = balancedObject(in: rest, from: next) else {
                return .failure(.malformed("JSON object \(objects.count + 1) between the tags never closes"))
            }
            objects.append(object)
            rest = rest[object.endIndex...]
        }
        var calls: [ParsedCall] = []
        calls.reserveCapacity(objects.count)
        for objectBytes in objects {
            let value: JSONValue
            do { value = try JSONValue.parse(objectBytes) } catch {
                return .failure(.malformed(error.description))
            }
            switch call(from: value) {
            case .success(let parsed): calls.append(parsed)
            case .failure(let failure): return .failure(failure)
            }
        }
        return .success(calls)
    }

    /// Whitespace or a comma: what may stand between two calls' objects in one tag.
    private static func isSeparator(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D || b == UInt8(ascii: ",")
    }

    /// Parses the content of a ```json fence written instead of the tags. Returns `nil` unless the
    /// content is exactly one JSON object shaped like a call (a `name` and `arguments`/`parameters`),
    /// so ordinary JSON examples in an answer stay text.
    static func parseFenced(_ content: ArraySlice<UInt8>) -> ParsedCall? {
        guard let value = try? JSONValue.parse(content), let object = value.objectValue else { return nil }
        let inner = object["function"]?.objectValue ?? object
        guard inner["arguments"] != nil || inner["parameters"] != nil else { return nil }
        return try? call(from: value).get()
    }

    private static func call(from value: JSONValue) -> Result<ParsedCall, Failure> {
        guard var object = value.objectValue else {
            return .failure(.malformed("expected a JSON object, found \(value.typeDescription)"))
        }
        if let function = object["function"]?.objectValue { object = function }
        guard let name = object["name"]?.stringValue, !name.isEmpty else {
            return .failure(.malformed("the object has no \"name\" string"))
        }
        switch object["arguments"] ?? object["parameters"] ?? .null {
        case .null:
            return .success(ParsedCall(name: name, arguments: "{}"))
        case .object(let args):
            return .success(ParsedCall(name: name, arguments: JSONValue.object(args).serialized()))
        case .string(let text):
            let trimmed = trimmed(text)
            if trimmed.isEmpty { return .success(ParsedCall(name: name, arguments: "{}")) }
            guard let parsed = try? JSONValue.parse(trimmed), case .object = parsed else {
                return .failure(.malformed("\"arguments\" of \(name) is a string that is not a JSON object"))
            }
            return .success(ParsedCall(name: name, arguments: parsed.serialized()))
        case let other:
            return .failure(.malformed("\"arguments\" of \(name) is \(other.typeDescription), expected an object"))
        }
    }

    private static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\r\n" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }

    /// The bytes of the first balanced `{…}` in `bytes`, skipping braces inside JSON strings.
    /// Returns `nil` when no object starts or the first one never closes.
    static func firstJSONObject(in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let start = bytes.firstIndex(of: UInt8(ascii: "{")) else { return nil }
        return balancedObject(in: bytes, from: start)
    }

    /// The bytes of the balanced `{…}` that starts at `start` (a `{`), skipping braces inside JSON
    /// strings; `nil` when it never closes.
    private static func balancedObject(in bytes: ArraySlice<UInt8>, from start: Int) -> ArraySlice<UInt8>? {
        var depth = 0
        var inString = false
        var escaped = false
        var i = start
        while i < bytes.endIndex {
            let b = bytes[i]
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: "{") {
                depth += 1
            } else if b == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return bytes[start...i] }
            }
            i += 1
        }
        return nil
    }
}

extension PromptToolsClient {
    /// `GatewayError.upstreamCode` of a call to a tool that was not offered to the model.
    /// The routing layer treats it as a sign the model is too weak and may escalate; it does not try the same request
    /// again, which shows the model the same conversation and tools (decision 0120).
    public static let toolNotOfferedCode = "tool_not_offered"
    /// `GatewayError.upstreamCode` of `<tool_call>` tags whose content is not a readable call: a failed answer
    /// (`GatewayError.failedAnswer`, reason `malformed_tool_call`), tried again like Gemini's (decision 0120).
    public static let malformedToolCallCode = "malformed_tool_call"

    static func toolNotOffered(_ name: String, offered: [String], provider: String?) -> GatewayError {
        let list = offered.isEmpty ? "no tools were offered" : "the offered tools are " + offered.joined(separator: ", ")
        var error = GatewayError.upstreamProtocol(
            "The model called the tool \"\(name)\", which was not offered to it (\(list)). "
                + "The call was refused. Sent again, the same request would most likely end the same way: if the conversation "
                + "shows earlier calls to \"\(name)\", offer that tool in the request or ask the operator to add it to the scenario's "
                + "skill packs; otherwise route the request to a stronger model (or ask the operator to turn on escalate for the scenario).",
            provider: provider)
        error.upstreamCode = toolNotOfferedCode
        return error
    }
}
