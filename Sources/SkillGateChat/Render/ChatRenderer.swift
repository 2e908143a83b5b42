/// Turns the events of one answer into terminal text: streamed text as it arrives, one line per
/// skill (`⚙ current_time {"timezone":"UTC"} … ✓ 3 ms`), a line per client tool call, and a short
/// summary line at the end. A value type that tracks where the cursor is, so lines never run together.
///
/// Skills running in parallel: the line of the skill started last stays open for its result;
/// a skill finishing while another line is open gets a line of its own (`⚙ name … ✓ 5 ms`).
public struct ChatRenderer: Sendable {
    private enum Cursor: Sendable, Equatable {
        case lineStart
        case inText
        /// The `⚙ …` line of this call is waiting for its result.
        case openSkill(callID: String)
    }

    private var cursor = Cursor.lineStart
    private var model: String?

    public init() {}

    /// The text to print for `event` (possibly empty).
    public mutating func render(_ event: AgentEvent) -> String {
        switch event {
        case .runStarted, .unknown:
            return ""
        case .routeSelected(_, let model, _, _):
            self.model = model
            return ""
        case .textDelta(let text):
            guard !text.isEmpty else { return "" }
            let out = (cursor == .inText || cursor == .lineStart ? "" : "\n") + text
            cursor = text.hasSuffix("\n") ? .lineStart : .inText
            return out
        case .skillStarted(let callID, let skill, let arguments):
            let out = newLine() + "⚙ \(skill) \(ChatFormat.arguments(arguments)) …"
            cursor = .openSkill(callID: callID)
            return out
        case .skillFinished(let callID, let skill, let ok, let durationMs, let summary):
            var out: String
            if cursor == .openSkill(callID: callID) {
                out = ""
            } else {
                out = newLine() + "⚙ \(skill) …"
            }
            out += ok ? " ✓" : " ✗"
            if let durationMs { out += " \(durationMs) ms" }
            if !ok, let summary, !summary.isEmpty { out += " — " + ChatFormat.truncate(summary, limit: 200) }
            cursor = .lineStart
            return out + "\n"
        case .toolCall(_, let name, let arguments, let requiresConfirmation):
            let what = requiresConfirmation
                ? "⇢ the skill \(name) \(ChatFormat.arguments(arguments)) needs your confirmation; skillgate chat cannot confirm skills, so it was not run"
                : "⇢ the model asked the client to run \(name) \(ChatFormat.arguments(arguments)); skillgate chat has no client tools, so it was not run"
            let out = newLine() + what + "\n"
            cursor = .lineStart
            return out
        case .runCompleted(let finishReason, _, let usage, let cost, let message):
            var parts: [String] = []
            if let model { parts.append(model) }
            if let usage { parts.append("\(usage.inputTokens) in / \(usage.outputTokens) out tokens") }
            if let cost { parts.append(ChatFormat.cost(cost)) }
            if let finishReason, finishReason != "stop" { parts.append("finish: \(finishReason)") }
            if let message, !message.isEmpty { parts.append(ChatFormat.truncate(message, limit: 200)) }
            let out = newLine() + "  [" + parts.joined(separator: " · ") + "]\n"
            cursor = .lineStart
            return out
        case .runFailed(let type, let message):
            return line("✗ " + message + (type.map { " (\($0))" } ?? ""))
        case .malformed(let name, let reason):
            return line("! ignored an unreadable \(name) event: \(reason)")
        }
    }

    /// The line that ends an answer that stopped early: Ctrl-C, a transport error, or a stream that
    /// ended without `run.completed`/`run.failed`.
    public mutating func render(_ ending: TurnEnding) -> String {
        switch ending {
        case .completed, .failed:
            return ""
        case .stopped:
            return line("⏹ stopped")
        case .transportError(let message):
            return line("✗ " + message)
        }
    }

    /// Ends an open line (text or a skill waiting for its result) so the next output starts a line.
    public mutating func newLine() -> String {
        defer { cursor = .lineStart }
        return cursor == .lineStart ? "" : "\n"
    }

    private mutating func line(_ text: String) -> String {
        let out = newLine() + text + "\n"
        cursor = .lineStart
        return out
    }
}
