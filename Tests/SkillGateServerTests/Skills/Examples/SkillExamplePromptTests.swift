import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer

@Suite struct SkillExamplePromptTests {
    static let reminder = SkillCandidate(
        name: "set_reminder", description: "Create a reminder that notifies the user at a given date and time.",
        parameters: ["type": "object", "properties": ["text": ["type": "string", "description": "What to be reminded of"],
                                                      "due": ["type": "string", "description": "ISO-8601 date-time"],
                                                      "silent": ["type": "boolean"]]])

    @Test func theRequestShowsTheSkillsNameDescriptionAndParametersInOrder() {
        let request = SkillExamplePrompt.request(for: Self.reminder)
        #expect(request.messages.count == 2 && request.messages[0].role == .system && request.messages[1].role == .user)
        #expect(request.messages[0].text == SkillExamplePrompt.instructions)
        #expect(request.messages[1].text == """
            name: set_reminder
            description: Create a reminder that notifies the user at a given date and time.
            parameters: text (What to be reminded of), due (ISO-8601 date-time), silent ()
            """)
        #expect(request.temperature == 0 && request.maxTokens == 600)
        #expect(request.responseFormat == ["type": "json_object"])
    }

    @Test func aSkillWithoutParametersOrDescriptionStillGetsEveryLine() {
        #expect(SkillExamplePrompt.skillText(SkillCandidate(name: "ping")) == "name: ping\ndescription: \nparameters: ")
    }

    @Test(arguments: [
        // The asked-for object: English, then Chinese.
        (#"{"en": ["remind me at 6", "ping me later"], "zh": ["六点提醒我"]}"#, ["remind me at 6", "ping me later", "六点提醒我"]),
        // Inside a Markdown fence, after a sentence; trimmed; repeats and empty strings dropped.
        ("Sure:\n```json\n{\"en\": [\" nudge me at noon \", \"nudge me at noon\", \"\"], \"zh\": []}\n```", ["nudge me at noon"]),
        // Cut off by max_tokens before the object closed: the complete strings, not the keys or the cut one.
        (#"{"en": ["wake me at 7", "don't let me forget the rent"], "zh": ["明天早上叫"#, ["wake me at 7", "don't let me forget the rent"]),
        // Escapes are decoded in both paths.
        (#"{"en": ["say \"hi\" at 5"]}"#, [#"say "hi" at 5"#]),
        (#"{"en": ["say \"hi\" at 5", "#, [#"say "hi" at 5"#]),
        // Not the asked-for shape: strings of other arrays count, objects do not.
        (#"{"requests": ["remind me"], "other": [{"prompt": "x"}]}"#, ["remind me"]),
        ("I cannot help with that.", []),
        ("", []),
    ])
    func examplesAreReadFromTheAnswer(_ answer: String, _ expected: [String]) {
        #expect(SkillExamplePrompt.examples(in: answer) == expected)
    }

    @Test func overlongExamplesAreDroppedAndTheCountIsCapped() {
        let long = String(repeating: "a", count: SkillExamplePrompt.maxExampleCharacters + 1)
        let many = (0..<40).map { "\"example number \($0)\"" }.joined(separator: ",")
        #expect(SkillExamplePrompt.examples(in: #"{"en": ["\#(long)", "short one"]}"#) == ["short one"])
        #expect(SkillExamplePrompt.examples(in: "{\"en\": [\(many)]}").count == SkillExamplePrompt.maxExamples)
    }
}
