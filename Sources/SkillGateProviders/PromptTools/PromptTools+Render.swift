import SkillGateCore

/// Turns a request with tools into a text-only request in the Hermes/Qwen tool convention.
///
/// The offered tools go into the system prompt as JSON function signatures inside `<tools>` tags,
/// followed by the instruction to answer with `<tool_call>{"name": ..., "arguments": ...}</tool_call>`.
/// Earlier assistant tool calls are written back as `<tool_call>` text and tool results become user
/// turns wrapped in `<tool_response>` tags, so the whole conversation is plain text.
enum PromptToolsRenderer {
    /// The text-only request for the inner model and the names of the tools it was offered.
    struct Prepared: Sendable {
        var request: ChatRequest
        var offeredTools: [String]
    }

    /// Prepares `request` for a text-only model. `tool_choice` `none` offers no tools; a named
    /// choice offers only that tool. Throws a caller `GatewayError` when the named tool is missing.
    static func prepare(_ request: ChatRequest) throws -> Prepared {
        let offered = try offeredTools(request)
        var system = request.systemText ?? ""
        if !offered.isEmpty {
            if !system.isEmpty { system += "\n\n" }
            system += toolsSection(offered, choice: request.toolChoice, parallel: request.parallelToolCalls)
        }
        var messages: [Message] = system.isEmpty ? [] : [Message(role: .system, text: system)]
        messages += conversation(request.messages)
        var inner = request
        inner.messages = messages
        inner.tools = []
        inner.toolChoice = nil
        inner.parallelToolCalls = nil
        return Prepared(request: inner, offeredTools: offered.map(\.name))
    }

    static func offeredTools(_ request: ChatRequest) throws -> [ToolDefinition] {
        switch request.toolChoice {
        case .none?: return []
        case .named(let name)?:
            let tools = request.tools.filter { $0.name == name }
            guard !tools.isEmpty else {
                throw GatewayError.invalidRequest(
                    "tool_choice names the tool \"\(name)\", which is not among the request's tools; "
                        + "add it to tools or name one of: \(request.tools.map(\.name).joined(separator: ", ")).",
                    param: "tool_choice")
            }
            return tools
        default: return request.tools
        }
    }

    /// The `# Tools` section of the system prompt.
    static func toolsSection(_ tools: [ToolDefinition], choice: ToolChoice?, parallel: Bool?) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1024 + tools.count * 256)
        out += "# Tools\n\nYou may call one or more functions to help with the user's request.\n\n".utf8
        out += "The functions you can call are described by JSON signatures inside <tools></tools> tags:\n<tools>".utf8
        for tool in tools {
            out.append(UInt8(ascii: "\n"))
            writeSignature(tool, to: &out)
        }
        out += "\n</tools>\n\n".utf8
        out += "To call a function, answer with a JSON object holding the function name and its arguments "
        out += "inside <tool_call></tool_call> tags:\n".utf8
        out += "<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>\n\n".utf8
        if parallel == false {
            out += "Call at most one function per answer."
        } else {
            out += "Write one <tool_call> block per call; to call several functions, write several blocks."
        }
        out += " Function results come back inside <tool_response></tool_response> tags."
        switch choice {
        case .required?: out += "\n\nYou must call at least one of these functions now instead of answering in plain text.".utf8
        case .named(let name)?: out += "\n\nYou must call the function \"\(name)\" now.".utf8
        default: break
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `{"type":"function","function":{"name":…,"description":…,"parameters":…}}`.
    static func signature(_ tool: ToolDefinition) -> String {
        var out: [UInt8] = []
        writeSignature(tool, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func writeSignature(_ tool: ToolDefinition, to out: inout [UInt8]) {
        out += "{\"type\":\"function\",\"function\":{\"name\":".utf8
        JSONValue.writeString(tool.name, to: &out)
        if let description = tool.description {
            out += ",\"description\":".utf8
            JSONValue.writeString(description, to: &out)
        }
        out += ",\"parameters\":".utf8
        tool.schema.write(to: &out)   // copied when kept as text, not parsed into a tree first
        out += "}}"
    }

    /// `<tool_call>\n{"name": "…", "arguments": {…}}\n</tool_call>`.
    static func renderCall(_ call: ToolCall) -> String {
        let arguments = call.parsedArguments?.serialized() ?? JSONValue.string(call.arguments).serialized()
        return "<tool_call>\n{\"name\": " + JSONValue.string(call.name).serialized() + ", \"arguments\": " + arguments + "}\n</tool_call>"
    }

    /// Results as `<tool_response>` blocks, one per result.
    static func renderResults(_ results: [ToolResult]) -> String {
        results.map { result in
            let text = result.isError ? "Error: " + result.text : result.text
            return "<tool_response>\n" + text + "\n</tool_response>"
        }.joined(separator: "\n")
    }

    /// The non-system messages as text-only turns: tool results merged into user turns.
    static func conversation(_ messages: [Message]) -> [Message] {
        var out: [Message] = []
        func appendUser(_ content: [ContentBlock]) {
            if let last = out.last, last.role == .user {
                out[out.count - 1].content += [.text("\n")] + content
            } else {
                out.append(Message(role: .user, content: content))
            }
        }
        for message in messages where message.role != .system {
            switch message.role {
            case .tool, .user:
                let results = message.toolResults
                if !results.isEmpty { appendUser([.text(renderResults(results))]) }
                let rest = message.content.filter { $0.toolResult == nil }
                if !rest.isEmpty { appendUser(rest) }
            case .assistant:
                out.append(Message(role: .assistant, content: assistantContent(message.content)))
            case .system:
                break
            }
        }
        return out
    }

    /// Assistant content with tool calls written as `<tool_call>` text, joined to the text around them.
    private static func assistantContent(_ blocks: [ContentBlock]) -> [ContentBlock] {
        var out: [ContentBlock] = []
        var text = ""
        for block in blocks {
            switch block {
            case .text(let t): text += t
            case .toolCall(let call): text += (text.isEmpty ? "" : "\n") + renderCall(call)
            default:
                if !text.isEmpty { out.append(.text(text)); text = "" }
                out.append(block)
            }
        }
        if !text.isEmpty { out.append(.text(text)) }
        return out
    }
}
