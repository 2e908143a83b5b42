import SkillGateCore

/// A tool call the demo model makes.
struct DemoCall: Sendable, Hashable {
    var name: String
    /// The arguments object.
    var arguments: JSONValue
}

/// The demo model's answers: a tool call, or text written from a fixed script.
enum DemoReply: Sendable, Hashable {
    case text(String)
    /// Tool calls, in order.
    case calls([DemoCall])

    /// What the demo reads of the user's latest message: 4 KiB from its start and 4 KiB from its end.
    static let textWindow = TextWindow(headBytes: 4_096, tailBytes: 4_096)

    /// Decides the answer to `request`. Throws a caller error when `tool_choice` names a tool the
    /// request does not offer. After tool results the demo answers in text from them, unless
    /// `tool_choice` forces another call.
    static func decide(_ request: ChatRequest) throws -> DemoReply {
        let tools = request.tools
        // The demo reads a long message through a window, as the router does (decision 0078): its keyword and arithmetic
        // scans would otherwise hold the event loop for a pasted document.
        let userText = Self.textWindow.apply(request.messages.last { $0.role == .user && !$0.text.isEmpty }?.text ?? "")
        let intent = DemoIntent.detect(userText)
        let results = trailingResults(request.messages)

        switch request.toolChoice {
        case .named(let name)?:
            guard let tool = tools.first(where: { $0.name == name }) else {
                throw GatewayError.invalidRequest(
                    "tool_choice names the tool \"\(name)\", which is not among the request's tools; add it to tools or choose another.",
                    param: "tool_choice")
            }
            return .calls([DemoCall(name: tool.name, arguments: intent.arguments(for: tool, userText: userText))])
        case .required?:
            guard !tools.isEmpty else { break }
            let tool = intent.bestTool(in: tools) ?? tools[0]
            return .calls([DemoCall(name: tool.name, arguments: intent.arguments(for: tool, userText: userText))])
        default: break
        }
        if !results.isEmpty { return .text(followUp(results, request: request)) }
        if request.toolChoice != ToolChoice.none, let tool = intent.bestTool(in: tools) {
            if case .weather(nil) = intent {
                return .text("Which city would you like the weather for? Tell me, and I'll ask \(tool.name).")
            }
            return .calls([DemoCall(name: tool.name, arguments: intent.arguments(for: tool, userText: userText))])
        }
        return .text(introduction(model: request.model, intent: intent, tools: tools, toolsOff: request.toolChoice == ToolChoice.none))
    }

    /// The tool results at the end of the conversation, each with the call it answers.
    static func trailingResults(_ messages: [Message]) -> [(result: ToolResult, call: ToolCall?)] {
        var results: [ToolResult] = []
        var index = messages.count - 1
        while index >= 0, messages[index].role == .tool || (messages[index].role == .user && !messages[index].toolResults.isEmpty && messages[index].text.isEmpty) {
            results = messages[index].toolResults + results
            index -= 1
        }
        let calls = index >= 0 ? messages[index].toolCalls : []
        return results.map { result in (result, calls.first { $0.id == result.callId }) }
    }

    /// A text answer made from tool results ("The time is …", "17 × 23 = 391").
    static func followUp(_ results: [(result: ToolResult, call: ToolCall?)], request: ChatRequest) -> String {
        results.map { result, call in
            let name = call?.name ?? result.name ?? "the tool"
            let value = result.text.trimmedForReply
            if result.isError {
                return "Sorry, \(name) failed: \(value). You could try again or ask differently."
            }
            let description = request.tools.first { $0.name == name }?.description
            switch DemoIntent.served(by: name, description: description) {
            case .time: return "The time is \(value)."
            case .arithmetic:
                // A calculator that already answers "17 * 23 = 391" is quoted as it is.
                if value.contains("=") { return value.hasSuffix(".") ? value : value + "." }
                let expression = call?.parsedArguments?.objectValue?.members.lazy.compactMap(\.value.stringValue).first
                return expression.map { "\(DemoIntent.pretty($0)) = \(value)." } ?? "The result is \(value)."
            case .weather:
                let place = call?.parsedArguments?.objectValue?.members.lazy.compactMap(\.value.stringValue).first
                return place.map { "The weather in \($0): \(value)." } ?? "The weather: \(value)."
            case .none: return "\(name) returned: \(value)."
            }
        }.joined(separator: " ")
    }

    /// The answer when no tool is called: what the demo is and how to add a real provider.
    static func introduction(model: String, intent: DemoIntent, tools: [ToolDefinition], toolsOff: Bool) -> String {
        var s = ""
        if intent != .none {
            if toolsOff, let tool = intent.bestTool(in: tools) {
                s += "You asked about \(intent.topic). Tool calls are turned off for this request (tool_choice none), so I won't call \(tool.name). "
            } else {
                s += "You asked about \(intent.topic), but no tool for that is available in this scenario, so I can't look it up. "
            }
        }
        s += "I'm SkillGate's built-in demo model (\(model)): I run offline, need no key, and always answer the same way, "
        s += "so you can build and try your app before connecting a real model. "
        s += "When a scenario offers tools for the time, arithmetic or the weather, I call them: try \"What time is it?\" or \"What is 17 * 23?\". "
        s += "For real answers, store a provider key with `skillgate keys set <name>` and point your scenario's model tiers at that provider in Config/skillgate.json."
        return s
    }
}

extension String {
    /// A tool result shortened for a one-line reply.
    fileprivate var trimmedForReply: String {
        let flat = split(whereSeparator: \.isNewline).joined(separator: " ")
        let trimmed = String(DemoIntent.trim(flat[...], " ."))
        return trimmed.count > 300 ? String(trimmed.prefix(300)) + "…" : trimmed
    }
}
