import SkillGateCore
import SkillGateSkills

/// The call that asks a chat model for example requests of one skill, and the reading of its
/// answer. Pure, so both sides are tested without a model. The wording is the one measured in
/// decision 0045: changing it changes every stored example's key, and the figures.
enum SkillExamplePrompt {
    /// The instructions.
    static let instructions = """
        You write test data for a tool-calling assistant. Given one tool, write requests that real users would type \
        to an assistant when they need that tool. Vary the wording: casual and formal, short and long, indirect ones \
        that never name the action, and ones that use none of the words of the tool's description. \
        Each request is one short message (under 15 words), as typed in a chat. \
        Answer with a JSON object only, of this form: {"en": ["...", "...", "...", "...", "...", "..."], \
        "zh": ["...", "...", "...", "...", "...", "..."]}: six English requests and six in Simplified Chinese.
        """
    /// Room for twelve short requests and the JSON around them.
    static let maxTokens = 600
    /// The most examples kept from one answer.
    static let maxExamples = 24
    /// The longest example kept, in characters (a longer one is not a chat message).
    static let maxExampleCharacters = 300

    /// What the model is told about `skill`: its name, description and parameters.
    static func skillText(_ skill: SkillCandidate) -> String {
        var text = "name: \(skill.name)\ndescription: \(skill.description ?? skill.metadata?.description ?? "")\nparameters: "
        let properties = skill.parameters?["properties"]?.objectValue
        text += (properties?.map { "\($0.key) (\($0.value["description"]?.stringValue ?? ""))" } ?? []).joined(separator: ", ")
        return text
    }

    /// The request for `skill`'s examples.
    static func request(for skill: SkillCandidate) -> ChatRequest {
        ChatRequest(model: "", messages: [Message(role: .system, text: instructions), Message(role: .user, text: skillText(skill))],
                    maxTokens: maxTokens, temperature: 0, responseFormat: ["type": "json_object"])
    }

    /// The example requests in `answer`: the strings of the arrays of its JSON object (`en`, then `zh`),
    /// or, when the answer was cut off before the object closed, every string of at least four
    /// characters in it except the keys. Trimmed, without empty ones or repeats.
    static func examples(in answer: String) -> [String] {
        let bytes = Array(answer.utf8.prefix(SkillSelectorPrompt.maxAnswerBytes))
        var found: [String] = []
        if let open = bytes.firstIndex(of: UInt8(ascii: "{")), let close = bytes.lastIndex(of: UInt8(ascii: "}")), close > open,
           let object = (try? JSONValue.parse(Array(bytes[open...close])))?.objectValue {
            for member in object { for item in member.value.arrayValue ?? [] { if let s = item.stringValue { found.append(s) } } }
        } else {
            found = stringLiterals(in: bytes).filter { $0.count >= 4 && $0 != "en" && $0 != "zh" }
        }
        var seen = Set<String>()
        var out: [String] = []
        for raw in found {
            let text = raw.trimmingSpacesAndTabs()
            guard !text.isEmpty, text.count <= maxExampleCharacters, seen.insert(text).inserted else { continue }
            out.append(text)
            if out.count == maxExamples { break }
        }
        return out
    }

    /// The complete JSON string literals of `bytes`, decoded (an unterminated last one is dropped).
    static func stringLiterals(in bytes: [UInt8]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "\"") else { i += 1; continue }
            var j = i + 1
            while j < bytes.count, bytes[j] != UInt8(ascii: "\"") { j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1 }
            guard j < bytes.count else { break }
            if let s = (try? JSONValue.parse(Array(bytes[i...j])))?.stringValue { out.append(s) }
            i = j + 1
        }
        return out
    }
}
