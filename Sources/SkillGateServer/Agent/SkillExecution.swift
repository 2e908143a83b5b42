import SkillGateCore
import SkillGateSkills

/// Running one server-side skill call: timeout, failure as a model-readable result, size cap.
enum SkillExecution {
    /// Runs `skill` with validated `arguments`, cancelled after `timeout`. A timeout or a thrown
    /// error becomes an error result the model can read; the caller's cancellation propagates
    /// (`CancellationError`). Note: a skill that ignores cancellation delays its own timeout answer.
    static func run(_ skill: any Skill, arguments: JSONValue, context: SkillContext, timeout: Duration) async throws -> SkillResult {
        let outcome: SkillResult?
        do {
            outcome = try await withThrowingTaskGroup(of: SkillResult?.self) { group in
                if skill.mayBlock {
                    // Skills may block (SQLite, a slow webhook's DNS): never on the server's event loop.
                    group.addTask(executorPreference: globalConcurrentExecutor) { try await skill.execute(arguments, context: context) }
                } else {
                    group.addTask { try await skill.execute(arguments, context: context) }   // where the caller runs
                }
                group.addTask { try await Task.sleep(for: timeout); return nil }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
        } catch {
            if Task.isCancelled { throw CancellationError() }
            return SkillResult(text: "The skill \"\(skill.name)\" failed: \(error). Tell the user it is unavailable or try other arguments.", isError: true)
        }
        if Task.isCancelled { throw CancellationError() }
        guard let outcome else {
            return SkillResult(text: "The skill \"\(skill.name)\" did not answer within \(timeout.agentSeconds) s and was stopped. Try again later or answer without it.", isError: true)
        }
        return outcome
    }

    /// `text` cut to at most `maxBytes` UTF-8 bytes (on a character boundary) plus a note saying so.
    static func truncate(_ text: String, maxBytes: Int) -> String {
        let total = text.utf8.count
        guard total > maxBytes else { return text }
        let note = "\n[truncated: the result was \(total) bytes; only the first \(maxBytes) are shown]"
        let budget = max(0, maxBytes - note.utf8.count)
        var bytes = Array(text.utf8.prefix(budget))
        // Drop a multi-byte character the cut split.
        if let lead = bytes.indices.last(where: { bytes[$0] & 0xC0 != 0x80 }), bytes[lead] >= 0xC0 {
            let length = bytes[lead] >= 0xF0 ? 4 : bytes[lead] >= 0xE0 ? 3 : 2
            if bytes.count - lead < length { bytes.removeSubrange(lead...) }
        }
        return String(decoding: bytes, as: UTF8.self) + note
    }

    /// A one-line summary of a result for `skill.finished` (first line, at most 120 characters).
    static func summary(_ text: String) -> String {
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: true).first.map(String.init) ?? ""
        return line.count > 120 ? String(line.prefix(117)) + "..." : line
    }

    /// The arguments in a canonical form (object keys sorted) for repeated-call detection.
    static func canonical(_ value: JSONValue) -> String {
        switch value {
        case .object(let o):
            let members = o.members.sorted { $0.key < $1.key }.map { JSONValue.string($0.key).serialized() + ":" + canonical($0.value) }
            return "{" + members.joined(separator: ",") + "}"
        case .array(let a):
            return "[" + a.map(canonical).joined(separator: ",") + "]"
        default:
            return value.serialized()
        }
    }
}

extension Duration {
    /// Seconds, for messages (`1.5`).
    var agentSeconds: String {
        let s = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return s == s.rounded() ? String(Int(s)) : String((s * 10).rounded() / 10)
    }
}
