import SkillGateClient

/// The state of one terminal chat: the conversation so far, the scenario and the model.
///
/// A turn enters the conversation (user message plus the assistant's text) only when the assistant
/// produced text — also when the answer was stopped with Ctrl-C, so the model knows what it already
/// said. A turn without any text (stopped before the first word, failed, a tool call only) is left
/// out, so the next question is not glued to an unanswered one.
public struct ChatSession: Sendable {
    /// The conversation as OpenAI chat messages, oldest first.
    public private(set) var messages: [ChatMessage] = []
    /// The scenario sent with each request; nil lets the server choose.
    public var scenario: String?
    /// The model sent with each request; nil means "auto".
    public var model: String?

    public init(scenario: String? = nil, model: String? = nil) {
        self.scenario = scenario
        self.model = model == "auto" ? nil : model
    }

    /// The `/v1/agent` request for asking `question` after the conversation so far.
    public func request(asking question: String) -> AgentRequest {
        AgentRequest(messages: messages + [.user(question)], model: model, scenario: scenario)
    }

    /// Records a finished turn (see the type's rule for which turns are kept).
    public mutating func record(question: String, result: TurnResult) {
        guard !result.text.isEmpty else { return }
        messages.append(.user(question))
        messages.append(.assistant(result.text))
    }

    /// What a slash command does to the session.
    public enum CommandOutcome: Sendable, Hashable {
        /// Print this and show the prompt again.
        case say(String)
        /// Leave the chat.
        case quit
    }

    /// Applies a slash command (`.message` and `.empty` are not commands and say nothing).
    public mutating func apply(_ input: ChatInput) -> CommandOutcome {
        switch input {
        case .message, .empty:
            return .say("")
        case .scenario(nil):
            return .say("scenario: \(scenario ?? "none (the server's default)")")
        case .scenario(let name?):
            scenario = name.lowercased() == "none" ? nil : name
            return .say("scenario: \(scenario ?? "none (the server's default)")")
        case .model(nil):
            return .say("model: \(model ?? "auto")")
        case .model(let name?):
            model = name.lowercased() == "auto" ? nil : name
            return .say("model: \(model ?? "auto")")
        case .reset:
            let count = messages.count
            messages.removeAll()
            return .say("conversation cleared (\(count) messages forgotten)")
        case .help:
            return .say(ChatInput.helpText)
        case .quit:
            return .quit
        case .invalid(let message):
            return .say(message)
        }
    }
}
