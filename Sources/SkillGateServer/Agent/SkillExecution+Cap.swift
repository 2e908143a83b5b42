import SkillGateCore
import SkillGateSkills

extension SkillExecution {
    /// `result` within `maxBytes` (`agent.max_result_bytes`), for every reader: its text cut by `truncate`, and its
    /// payload (an MCP tool's `structuredContent`, a built-in's card data) dropped whole when its JSON is longer than
    /// `maxBytes`, with a note at the end of the text saying so. Dropped, not cut: a cut JSON value is no longer
    /// JSON, and a value with only some members would pass for the whole answer. Without this an MCP server's 3.9 MB
    /// `structuredContent` reached the `/mcp` client and the `skill.finished` event whole (decision 0118).
    static func capped(_ result: SkillResult, maxBytes: Int) -> SkillResult {
        guard let payload = result.payload else { return SkillResult(text: truncate(result.text, maxBytes: maxBytes), isError: result.isError) }
        let size = payload.serializedBytes().count
        guard size > maxBytes else { return SkillResult(text: truncate(result.text, maxBytes: maxBytes), payload: payload, isError: result.isError) }
        let note = droppedNote(size: size, maxBytes: maxBytes)
        return SkillResult(text: truncate(result.text, maxBytes: maxBytes - note.utf8.count) + note, isError: result.isError)
    }

    /// The note of a dropped payload (about 170 bytes; `max_result_bytes` is at least 256, and `truncate` keeps within
    /// what is left).
    static func droppedNote(size: Int, maxBytes: Int) -> String {
        "\n[structured content dropped: its JSON was \(size) bytes, over the \(maxBytes)-byte agent.max_result_bytes; ask the tool for less, or the operator may raise the bound]"
    }
}
