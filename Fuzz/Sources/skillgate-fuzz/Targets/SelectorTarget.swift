@testable import SkillGateServer
import SkillGateCore

/// The selector model's answer reader (SkillGateServer/Skills/SkillSelectorPrompt): a chat model's
/// free text, from any provider. Invariants: what it returns is a subset of the offered names, in
/// no repeat, and no longer than the offered list.
enum SelectorTarget: FuzzTarget {
    static let offered = ["get_weather", "set_reminder", "send_email", "Play_Music", "f"]

    static func run(_ data: [UInt8]) {
        let answer = String(decoding: data, as: UTF8.self)
        guard let names = SkillSelectorPrompt.chosenNames(in: answer, offered: offered) else { return }
        invariant(names.allSatisfy(offered.contains), "not offered: \(names)")
        invariant(Set(names).count == names.count, "repeated: \(names)")
        invariant(names.count <= offered.count, "more than offered: \(names)")
    }

    static func seeds(_ fixtures: Fixtures) -> [[UInt8]] {
        var out = [
            #"{"tools": ["get_weather", "send_email"]}"#,
            #"{"tools": []}"#,
            "```json\n{\"tools\": [\"set_reminder\"]}\n```",
            #"Here you go: {"tools": [2, "3", "4. play_music"]} thanks"#,
            #"["f", "F", "get_weather"]"#,
            #"{"reasoning": "x", "tools": ["get_weather"], "extra": {"a": [1, 2]}}"#,
            #"{"tool": ["get_weather"]} [ "send_email" ]"#,
        ]
        // Recorded assistant texts (what models write around JSON).
        for object in fixtures.allObjects().prefix(100) {
            if let text = object["content"]?.stringValue ?? object["text"]?.stringValue { out.append(text) }
        }
        return out.map { Array($0.utf8) }
    }
}
