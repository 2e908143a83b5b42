import SkillGateCore

/// What running a skill produced: text for the model and, optionally, a structured payload for UIs.
public struct SkillResult: Sendable, Hashable {
    /// What the model reads (kept short; the agent loop caps its size).
    public var text: String
    /// Structured data an app can render (a skill card), never sent to the model.
    public var payload: JSONValue?
    /// Whether the skill failed; `text` then says what went wrong and what the model can do.
    public var isError: Bool

    public init(text: String, payload: JSONValue? = nil, isError: Bool = false) {
        self.text = text
        self.payload = payload
        self.isError = isError
    }
}

/// Who a skill runs for.
public struct SkillContext: Sendable, Hashable {
    /// The client token's name (notes and other per-caller state are kept per token).
    public var tokenName: String
    /// The request's id, for logs.
    public var requestId: String

    public init(tokenName: String, requestId: String) {
        self.tokenName = tokenName
        self.requestId = requestId
    }
}

/// A skill SkillGate runs on the server: a tool whose calls the gateway executes itself.
public protocol Skill: Sendable {
    /// A stable identifier (`builtin.current_time`, `webhook.create_ticket`).
    var id: String { get }
    /// The tool name the model calls it by (`[a-zA-Z0-9_-]{1,64}`).
    var name: String { get }
    /// What it does, written for the model.
    var description: String { get }
    /// JSON Schema of the arguments object.
    var parameters: JSONValue { get }
    var version: String { get }
    /// Longest a run may take before it is cancelled and reported as an error to the model.
    var timeout: Duration { get }
    /// Whether a person must confirm a call first: such calls are returned to the client instead of run.
    var requiresConfirmation: Bool { get }
    /// Whether a run may block its thread (file, database or network I/O, a lock). Such skills run on Swift's global
    /// executor, never on the server's event loop; a pure computation with a small bound says false and runs in the
    /// calling task, on the request's loop, with no hand-off and no wait for a busy pool. True unless a skill says
    /// otherwise.
    var mayBlock: Bool { get }
    /// What the skill says about its effects (read-only, destructive, ...), shown to MCP clients by `/mcp`'s
    /// `tools/list`. Nothing unless a skill says otherwise: a client then assumes the worst (decision 0121).
    var annotations: SkillAnnotations { get }
    /// The skill as a tool definition the model sees. By default made from `name`, `description` and `parameters` on
    /// each call; a skill that keeps one (schema as text, `ToolSchema.keptAsText`) lets every request copy it.
    var toolDefinition: ToolDefinition { get }
    /// Runs the skill with validated arguments. Throwing is reported to the model as an error result.
    func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult
}

extension Skill {
    public var mayBlock: Bool { true }

    public var annotations: SkillAnnotations { .none }

    /// The skill as a tool definition the model sees, its schema a tree.
    public var toolDefinition: ToolDefinition {
        ToolDefinition(name: name, description: description, parameters: parameters)
    }
}

/// Skills that come and go while the gateway runs (the tools of MCP servers).
public protocol LiveSkillSet: Sendable {
    /// The skills now, in a stable order.
    var current: [any Skill] { get }
    /// The skill with this tool name now.
    func skill(named name: String) -> (any Skill)?
}
