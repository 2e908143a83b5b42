/// A `POST /v1/agent` body: the conversation, and optionally the model, scenario and client tools.
public struct AgentRequest: Codable, Sendable, Hashable {
    /// The conversation so far, oldest first, in the OpenAI chat shape.
    public var messages: [ChatMessage]
    /// `auto` when nil (the scenario's default, or routed by the task).
    public var model: String?
    /// The scenario (which skills the model may use); nil: the token's or the gateway's default.
    public var scenario: String?
    /// Client tools: when the model calls one, the run ends with a `tool.call` event for the app to run it.
    public var tools: [ChatTool]?

    public init(messages: [ChatMessage], model: String? = nil, scenario: String? = nil, tools: [ChatTool]? = nil) {
        self.messages = messages
        self.model = model
        self.scenario = scenario
        self.tools = tools
    }

    /// A request with one user message.
    public init(asking question: String, model: String? = nil, scenario: String? = nil, tools: [ChatTool]? = nil) {
        self.init(messages: [.user(question)], model: model, scenario: scenario, tools: tools)
    }
}
