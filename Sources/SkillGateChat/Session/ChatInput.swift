/// One line typed at the `> ` prompt, interpreted: a message for the model or a slash command.
public enum ChatInput: Sendable, Hashable {
    /// A question or message for the model. `//text` sends `/text`.
    case message(String)
    /// `/scenario NAME` (nil: show the current one; "none" clears it).
    case scenario(String?)
    /// `/model NAME` (nil: show the current one; "auto" clears it).
    case model(String?)
    case reset
    case help
    case quit
    /// Nothing to do (a blank line).
    case empty
    /// A slash command this chat does not know, or with wrong arguments; the message says why.
    case invalid(String)

    /// Interprets one input line (without its newline).
    public static func parse(_ line: String) -> ChatInput {
        let trimmed = line.trimmingWhitespace()
        if trimmed.isEmpty { return .empty }
        if trimmed.hasPrefix("//") { return .message(String(trimmed.dropFirst())) }
        guard trimmed.hasPrefix("/") else { return .message(trimmed) }
        let words = trimmed.dropFirst().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let name = words.first?.lowercased() ?? ""
        let rest = Array(words.dropFirst())
        switch name {
        case "scenario", "model":
            guard rest.count <= 1 else { return .invalid("/\(name) takes one NAME, got \(rest.count) words; e.g. /\(name) \(name == "model" ? "strong" : "chat")") }
            return name == "model" ? .model(rest.first) : .scenario(rest.first)
        case "reset", "help", "quit", "exit":
            guard rest.isEmpty else { return .invalid("/\(name) takes no arguments") }
            switch name {
            case "reset": return .reset
            case "help": return .help
            default: return .quit
            }
        default:
            return .invalid("unknown command /\(name); type /help for the commands, or start the line with // to send it as text")
        }
    }

    /// The `/help` text.
    public static let helpText = """
    Commands:
      /scenario NAME   use a scenario for the next questions (/scenario none: the token's default; /scenario: show)
      /model NAME      use a model: auto, a tier, an alias or provider/model (/model auto: routing; /model: show)
      /reset           forget the conversation so far
      /help            this list
      /quit            leave (also Ctrl-D, or Ctrl-C at the prompt)
    Ctrl-C while an answer streams stops that answer. Start a line with // to send text beginning with /.
    """
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
