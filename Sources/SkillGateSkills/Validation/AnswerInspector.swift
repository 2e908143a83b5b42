import SkillGateCore

/// Why a model's answer cannot be used as it is.
public enum AnswerProblem: Sendable, Hashable, CustomStringConvertible {
    /// A call to a tool the model was not shown (never handed to a client, never run).
    case toolNotOffered(name: String, callId: String)
    /// A call whose arguments fail the tool's schema.
    case invalidArguments(ArgumentValidationError, callId: String)
    /// No text and no tool call.
    case emptyAnswer

    public var description: String {
        switch self {
        case .toolNotOffered(let name, _): return "called \"\(name)\", which was not offered"
        case .invalidArguments(let e, _): return e.description
        case .emptyAnswer: return "the answer is empty (no text and no tool call)"
        }
    }

    /// A short tag for logs and `GatewayError.upstreamCode` (`tool_not_offered`, `invalid_tool_arguments`, `empty_answer`).
    public var code: String {
        switch self {
        case .toolNotOffered: return "tool_not_offered"
        case .invalidArguments: return "invalid_tool_arguments"
        case .emptyAnswer: return "empty_answer"
        }
    }
}

/// Checks a model's answer against the tools it was shown: the invisible-call rule (a call to a
/// tool outside the offered set), arguments against each tool's JSON Schema, and emptiness.
///
/// Pure and cheap: the gateway runs it on every answer before anything reaches the client, and
/// the agent loop reuses it to turn problems into error results the model can correct.
public struct AnswerInspector: Sendable {
    /// The tools the model was shown.
    ///
    /// Looked up by scanning, not through a table by name: a request shows a few tools (a scenario's
    /// `max_visible_skills`), and most answers call none, so building a table on every answer cost more than the
    /// lookups it saved. An answer with several calls among many tools gets a table (`table(forCalls:)`), so no
    /// answer costs calls × tools comparisons.
    public let offered: [ToolDefinition]

    public init(offered tools: [ToolDefinition]) {
        offered = tools
    }

    /// The offered tool named `name`; of tools declared twice under one name, the last (as a table by name would keep).
    public func tool(named name: String) -> ToolDefinition? {
        offered.last { $0.name == name }
    }

    /// Calls to tools that were not offered (the invisible-call rule).
    public func invisibleCalls(in content: [ContentBlock]) -> [AnswerProblem] {
        let calls = content.compactMap(\.toolCall)
        let table = table(forCalls: calls.count)
        return calls.filter { tool(named: $0.name, in: table) == nil }.map { .toolNotOffered(name: $0.name, callId: $0.id) }
    }

    /// A table of the offered tools by name (last declaration wins) when `calls` lookups among them would cost more by
    /// scanning: several calls and many tools. Nil: scan.
    private func table(forCalls calls: Int) -> [String: ToolDefinition]? {
        guard calls > 1, offered.count > Self.scanLimit else { return nil }
        var table: [String: ToolDefinition] = [:]
        table.reserveCapacity(offered.count)
        for tool in offered { table[tool.name] = tool }
        return table
    }

    private func tool(named name: String, in table: [String: ToolDefinition]?) -> ToolDefinition? {
        if let table { return table[name] }
        return tool(named: name)
    }

    /// The most tools looked up by scanning when an answer makes several calls (more get a table by name).
    public static let scanLimit = 16

    /// Whether a call to `name` may be handed on (for streams, checked when a call starts).
    public func isOffered(_ name: String) -> Bool { offered.contains { $0.name == name } }

    /// Every problem of `response`, invisible calls first. Empty when the answer is usable.
    public func problems(in response: ChatResponse) -> [AnswerProblem] {
        var out = invisibleCalls(in: response.content)
        let table = table(forCalls: response.toolCalls.count)
        for call in response.toolCalls {
            guard let tool = tool(named: call.name, in: table) else { continue }
            do { _ = try ArgumentValidator.validate(arguments: call.arguments, schema: tool.parameters, tool: call.name) } catch {
                out.append(.invalidArguments(error, callId: call.id))
            }
        }
        let hasText = response.content.contains { ($0.text ?? "").contains(where: { !$0.isWhitespace }) }
        if !hasText, response.toolCalls.isEmpty { out.append(.emptyAnswer) }
        return out
    }
}
