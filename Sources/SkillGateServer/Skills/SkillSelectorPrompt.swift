import SkillGateCore
import SkillGateSkills

/// The selector's one short call: the request that asks a chat model which skills fit the
/// conversation, and the reading of its answer. Pure, so both sides are tested without a model.
enum SkillSelectorPrompt {
    /// How many trailing user turns the model sees (as the ranking's query does).
    static let userTurns = 3
    /// Longest user turn shown, in characters (a pasted document says little about the tool needed).
    static let maxTurnCharacters = 600
    /// Longest skill description shown, in characters.
    static let maxDescriptionCharacters = 200

    /// The instructions, with `limit` filled in.
    static func instructions(limit: Int) -> String {
        """
        You choose which tools an assistant should be shown for the user's latest message. \
        Read the conversation, then pick from the numbered list the tools the assistant may need to call \
        to answer the latest message (earlier turns give the topic of a short follow-up). \
        Reply with JSON only, no prose: {"tools": ["tool_name", ...]} with at most \(limit) names \
        copied exactly from the list, the most useful first, or {"tools": []} when no tool fits.
        """
    }

    /// The request for choosing at most `limit` of `candidates` (best-ranked first) for `messages`.
    static func request(messages: [Message], candidates: [SkillCandidate], limit: Int) -> ChatRequest {
        var text = "Conversation (oldest first):\n"
        for line in conversationLines(messages) { text += line + "\n" }
        text += "\nTools:\n"
        for (i, c) in candidates.enumerated() {
            text += "\(i + 1). \(c.name)"
            if let d = c.description ?? c.metadata?.description, !d.isEmpty { text += ": " + clipped(d, to: maxDescriptionCharacters) }
            text += "\n"
        }
        return ChatRequest(model: "", messages: [Message(role: .system, text: instructions(limit: limit)), Message(role: .user, text: text)],
                           maxTokens: 24 + 16 * limit, temperature: 0)
    }

    /// The last user turns with text and the tools called between them, oldest first:
    /// `user: ...`, `assistant called: get_weather`, `assistant: ...` (only the latest assistant text).
    static func conversationLines(_ messages: [Message]) -> [String] {
        var lines: [String] = []
        var turns = 0
        var sawAssistantText = false
        for message in messages.reversed() {
            switch message.role {
            case .user:
                let text = message.text
                if text.isEmpty { continue }
                lines.append("user: " + clipped(text, to: maxTurnCharacters))
                turns += 1
            case .assistant:
                let calls = message.toolCalls.map(\.name)
                if !calls.isEmpty { lines.append("assistant called: " + calls.joined(separator: ", ")) }
                let text = message.text
                if !sawAssistantText, !text.isEmpty {
                    sawAssistantText = true
                    lines.append("assistant: " + clipped(text, to: maxTurnCharacters / 2))
                }
            default: break
            }
            if turns == userTurns { break }
        }
        return lines.reversed()
    }

    /// The names of `offered` that `answer` chooses, in its order, without repeats: read from the
    /// JSON object `{"tools": [...]}` (or a bare array), also inside a Markdown code fence or after
    /// a sentence. Names are matched exactly, then ignoring case; unknown names are dropped.
    /// `nil` when the answer holds no such JSON.
    static func chosenNames(in answer: String, offered: [String]) -> [String]? {
        guard let names = jsonNames(in: answer) else { return nil }
        let exact = Set(offered)
        var byLowercase: [String: String] = [:]
        for name in offered { byLowercase[name.lowercased()] = byLowercase[name.lowercased()] ?? name }
        var seen = Set<String>()
        var out: [String] = []
        for raw in names {
            let name = raw.trimmingSpacesAndTabs()
            guard let match = exact.contains(name) ? name : byLowercase[name.lowercased()], seen.insert(match).inserted else { continue }
            out.append(match)
        }
        return out
    }

    /// The strings of the answer's `tools` array (or of a bare top-level array of strings).
    private static func jsonNames(in answer: String) -> [String]? {
        let bytes = Array(answer.utf8)
        var start = 0
        while let open = bytes[start...].firstIndex(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") }) {
            let close: UInt8 = bytes[open] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            // The longest candidate first: the last matching bracket closes the outermost value.
            if let end = bytes.lastIndex(of: close), end > open, let value = try? JSONValue.parse(Array(bytes[open...end])) {
                if let list = value["tools"]?.arrayValue ?? value.arrayValue {
                    let strings = list.compactMap(\.stringValue)
                    if strings.count == list.count { return strings }
                }
                // A whole JSON value without a `tools` list: nothing inside it counts either.
                start = end + 1
                continue
            }
            start = open + 1
        }
        return nil
    }

    private static func clipped(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "…"
    }
}
