import SkillGateClient

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
        case openSkill(callId: String)
    }

    private var cursor = Cursor.lineStart
    private var model: String?

    public init() {}

    /// The text to print for `event` (possibly empty).
    public mutating func render(_ event: AgentEvent) -> String {
        switch event {
        case .runStarted:
            return ""
        case .routeSelected(let route):
            model = route.model
            return ""
        case .textDelta(let delta):
            let text = delta.text
            guard !text.isEmpty else { return "" }
            let out = (cursor == .inText || cursor == .lineStart ? "" : "\n") + text
            cursor = text.hasSuffix("\n") ? .lineStart : .inText
            return out
        case .skillStarted(let started):
            let out = newLine() + "⚙ \(started.skill) \(ChatFormat.arguments(started.arguments)) …"
            cursor = .openSkill(callId: started.callId)
            return out
        case .skillFinished(let finished):
            var out: String
            if cursor == .openSkill(callId: finished.callId) {
                out = ""
            } else {
                out = newLine() + "⚙ \(finished.skill) …"
            }
            out += finished.ok ? " ✓" : " ✗"
            out += " \(finished.durationMs) ms"
            if !finished.ok, !finished.summary.isEmpty { out += " — " + ChatFormat.truncate(finished.summary, limit: 200) }
            cursor = .lineStart
            return out + "\n"
        case .toolCall(let call):
            let arguments = ChatFormat.arguments(call.arguments)
            let what = call.requiresConfirmation
                ? "⇢ the skill \(call.name) \(arguments) needs your confirmation; skillgate chat cannot confirm skills, so it was not run"
                : "⇢ the model asked the client to run \(call.name) \(arguments); skillgate chat has no client tools, so it was not run"
            let out = newLine() + what + "\n"
            cursor = .lineStart
            return out
        case .runCompleted(let done):
            var parts: [String] = []
            if let model { parts.append(model) }
            parts.append("\(done.usage.inputTokens) in / \(done.usage.outputTokens) out tokens")
            parts.append(ChatFormat.cost(done.costUSD))
            if done.finishReason != "stop" { parts.append("finish: \(done.finishReason)") }
            if let message = done.message, !message.isEmpty { parts.append(ChatFormat.truncate(message, limit: 200)) }
            let out = newLine() + "  [" + parts.joined(separator: " · ") + "]\n"
            cursor = .lineStart
            return out
        case .runFailed(let failed):
            return line("✗ " + failed.error.message + " (\(failed.error.type))")
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
