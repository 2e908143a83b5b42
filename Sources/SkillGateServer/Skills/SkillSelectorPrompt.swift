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
    /// a sentence. Names are matched exactly, then ignoring case, then without a copied list number
    /// (`"3. get_weather"`); a number (`3` or `"3"`) is a position in the numbered list. Unknown names
    /// are dropped. `nil` when the answer holds no such JSON.
    static func chosenNames(in answer: String, offered: [String]) -> [String]? {
        guard let items = jsonItems(in: answer) else { return nil }
        var byLowercase: [String: String] = [:]
        for name in offered { byLowercase[name.lowercased()] = byLowercase[name.lowercased()] ?? name }
        func position(_ n: Int) -> String? { n >= 1 && n <= offered.count ? offered[n - 1] : nil }
        func match(_ raw: String) -> String? {
            let text = raw.trimmingSpacesAndTabs()
            if let name = byLowercase[text.lowercased()] { return name }
            let digits = text.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let n = Int(digits) else { return nil }
            let rest = text.dropFirst(digits.count)
            if rest.isEmpty { return position(n) }
            guard let mark = rest.first, mark == "." || mark == ")" else { return nil }
            return byLowercase[String(rest.dropFirst()).trimmingSpacesAndTabs().lowercased()]
        }
        var seen = Set<String>()
        var out: [String] = []
        for item in items {
            let chosen = item.stringValue.flatMap { offered.contains($0) ? $0 : match($0) } ?? item.intValue.flatMap(position)
            guard let chosen, seen.insert(chosen).inserted else { continue }
            out.append(chosen)
        }
        return out
    }

    /// The most of an answer that is read: the asked-for JSON is a few hundred bytes, and a provider
    /// that ignores `max_tokens` must not make the loop parse megabytes.
    static let maxAnswerBytes = 16_384
    /// The most opening brackets tried as the start of the JSON (each try parses to the last closing one).
    static let maxAttempts = 32

    /// The items of the answer's `tools` array (or of a bare top-level array), when every one is a
    /// string or an integer.
    private static func jsonItems(in answer: String) -> [JSONValue]? {
        let bytes = Array(answer.utf8.prefix(maxAnswerBytes))
        var start = 0
        var attempts = 0
        while attempts < maxAttempts, let open = bytes[start...].firstIndex(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") }) {
            attempts += 1
            let close: UInt8 = bytes[open] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            // The longest candidate first: the last matching bracket closes the outermost value.
            if let end = bytes.lastIndex(of: close), end > open, let value = try? JSONValue.parse(Array(bytes[open...end])) {
                if let list = value["tools"]?.arrayValue ?? value.arrayValue,
                   list.allSatisfy({ $0.stringValue != nil || $0.intValue != nil }) {
                    return list
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
        // Counts at most `limit + 1` characters, not the whole text (a turn may be megabytes).
        let head = text.prefix(limit + 1)
        guard head.count > limit else { return text }
        return String(head.dropLast()) + "…"
    }
}
