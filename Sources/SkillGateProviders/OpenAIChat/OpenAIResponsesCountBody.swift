import SkillGateCore

/// A request as the body of OpenAI's Responses count (`POST /responses/input_tokens`, decision 0136): what the Chat
/// Completions body the gateway would send holds (`OpenAIChat+RequestBytes.swift`), in the Responses API's shape, and
/// only members that endpoint takes (`model`, `input`, `tools`, `tool_choice`, `parallel_tool_calls`, `text`).
///
/// - System messages are `system` messages, user messages `input_text` and `input_image` parts (`detail` `auto`, as
///   the API defaults), an earlier answer's text an assistant message and its calls `function_call` items, each tool
///   result a `function_call_output` with its text (Chat Completions has no field for a result's images either).
/// - Thinking is left out, as the Chat Completions body leaves it out.
/// - Function tools keep their `strict` (false when unset: Chat Completions does not enforce a schema unless asked, and
///   the Responses API requires the member).
/// - `response_format` becomes `text.format` (a `json_schema` one with its `name`, `schema` and `strict` moved up).
/// - Answer-only members (`max_output_tokens`, `temperature`, `stream`, `store`, ...) are not sent: the count endpoint
///   refuses members it does not know.
enum OpenAIResponsesCountBody {
    /// The body for `request`, addressed to `model`, as compact JSON bytes.
    static func bytes(_ request: ChatRequest, model: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024 + request.messages.count * 256 + request.tools.count * 512)
        out += #"{"model":"#
        JSONValue.writeString(model, to: &out)
        out += #","input":["#
        var first = true
        for message in request.messages { writeItems(of: message, to: &out, first: &first) }
        out.append(UInt8(ascii: "]"))
        if !request.tools.isEmpty {
            out += #","tools":["#
            for (i, tool) in request.tools.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeTool(tool, to: &out)
            }
            out.append(UInt8(ascii: "]"))
            if let choice = request.toolChoice {
                out += #","tool_choice":"#
                toolChoice(choice).write(to: &out)
            }
            if let parallel = request.parallelToolCalls { out += (parallel ? #","parallel_tool_calls":true"# : #","parallel_tool_calls":false"#).utf8 }
        }
        if let format = request.responseFormat.flatMap(textFormat) {
            out += #","text":{"format":"#
            format.write(to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The items of one message, in order: its tool results as `function_call_output` items, the rest as the message
    /// of its role (an assistant's calls as `function_call` items after its text).
    private static func writeItems(of message: Message, to out: inout [UInt8], first: inout Bool) {
        func separate() { if first { first = false } else { out.append(UInt8(ascii: ",")) } }
        var rest: [ContentBlock] = []
        func flush() {
            defer { rest.removeAll() }
            switch message.role {
            case .assistant:
                let text = rest.compactMap(\.text).joined()
                if !text.isEmpty {
                    separate()
                    out += #"{"type":"message","role":"assistant","content":"#
                    JSONValue.writeString(text, to: &out)
                    out.append(UInt8(ascii: "}"))
                }
                for call in rest.compactMap(\.toolCall) {
                    separate()
                    out += #"{"type":"function_call","call_id":"#
                    JSONValue.writeString(call.id, to: &out)
                    out += #","name":"#
                    JSONValue.writeString(call.name, to: &out)
                    out += #","arguments":"#
                    JSONValue.writeString(call.arguments.isEmpty ? "{}" : call.arguments, to: &out)
                    out.append(UInt8(ascii: "}"))
                }
            case .system:
                guard !rest.isEmpty else { return }
                separate()
                out += #"{"type":"message","role":"system","content":"#
                JSONValue.writeString(rest.compactMap(\.text).joined(separator: "\n\n"), to: &out)
                out.append(UInt8(ascii: "}"))
            case .user, .tool:
                guard !rest.isEmpty else { return }
                separate()
                out += #"{"type":"message","role":"user","content":"#
                writeUserContent(rest, to: &out)
                out.append(UInt8(ascii: "}"))
            }
        }
        for block in message.content {
            guard case .toolResult(let result) = block else {
                rest.append(block)
                continue
            }
            flush()
            separate()
            out += #"{"type":"function_call_output","call_id":"#
            JSONValue.writeString(result.callId, to: &out)
            out += #","output":"#
            JSONValue.writeString(result.text, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        flush()
    }

    /// A plain string for a single text block; `input_text` and `input_image` parts otherwise.
    private static func writeUserContent(_ blocks: [ContentBlock], to out: inout [UInt8]) {
        if blocks.count == 1, case .text(let t) = blocks[0] { JSONValue.writeString(t, to: &out); return }
        out.append(UInt8(ascii: "["))
        var first = true
        for block in blocks {
            switch block {
            case .text(let t):
                if !first { out.append(UInt8(ascii: ",")) }
                out += #"{"type":"input_text","text":"#
                JSONValue.writeString(t, to: &out)
                out.append(UInt8(ascii: "}"))
            case .image(let source):
                if !first { out.append(UInt8(ascii: ",")) }
                out += #"{"type":"input_image","image_url":"#
                JSONValue.writeString(source.urlString, to: &out)
                out += #","detail":"auto"}"#
            case .toolCall, .toolResult, .thinking: continue
            }
            first = false
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func writeTool(_ tool: ToolDefinition, to out: inout [UInt8]) {
        out += #"{"type":"function","name":"#
        JSONValue.writeString(tool.name, to: &out)
        if let d = tool.description { out += #","description":"#; JSONValue.writeString(d, to: &out) }
        out += #","parameters":"#
        tool.schema.write(to: &out)
        out += (tool.strict == true ? #","strict":true}"# : #","strict":false}"#).utf8
    }

    private static func toolChoice(_ choice: ToolChoice) -> JSONValue {
        switch choice {
        case .auto: "auto"
        case .none: "none"
        case .required: "required"
        case .named(let name): ["type": "function", "name": .string(name)]
        }
    }

    /// A Chat Completions `response_format` as the Responses API's `text.format`; nil for plain text or a shape it does
    /// not know.
    private static func textFormat(_ responseFormat: JSONValue) -> JSONValue? {
        switch responseFormat["type"]?.stringValue {
        case "json_object"?: return ["type": "json_object"]
        case "json_schema"?:
            guard let spec = responseFormat["json_schema"]?.objectValue, let name = spec["name"], let schema = spec["schema"] else { return nil }
            var format: JSONObject = ["type": "json_schema", "name": name, "schema": schema]
            for key in ["strict", "description"] { if let value = spec[key] { format[key] = value } }
            return .object(format)
        default: return nil
        }
    }
}
