import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer

/// The selector's request and the reading of its answer.
@Suite struct SkillSelectorPromptTests {
    static let offered = ["get_weather", "set_reminder", "send_email"]

    @Test(arguments: [
        (#"{"tools": ["set_reminder", "get_weather"]}"#, ["set_reminder", "get_weather"]),
        (#"{"tools": []}"#, []),
        ("```json\n{\"tools\": [\"send_email\"]}\n```", ["send_email"]),
        (#"Sure! Here is my choice: {"tools": ["get_weather"]} Hope that helps {:"#, ["get_weather"]),
        (#"["send_email", "get_weather"]"#, ["send_email", "get_weather"]),
        (#"{"tools": ["Get_Weather", " send_email "]}"#, ["get_weather", "send_email"]),
        (#"{"tools": ["get_weather", "book_flight", "get_weather"]}"#, ["get_weather"]),
        (#"{"reasoning": "the user asks about rain", "tools": ["get_weather"]}"#, ["get_weather"]),
        // The list's numbers: as positions, or copied in front of a name.
        (#"{"tools": [2, "3", 9, 0]}"#, ["set_reminder", "send_email"]),
        (#"{"tools": ["1. get_weather", "3) send_email", "4. get_weather", "2.set_reminder"]}"#, ["get_weather", "send_email", "set_reminder"]),
    ])
    func theChosenNamesAreReadFromTheAnswer(_ answer: String, _ expected: [String]) {
        #expect(SkillSelectorPrompt.chosenNames(in: answer, offered: Self.offered) == expected)
    }

    @Test(arguments: [
        "get_weather",
        "I would show the weather tool.",
        #"{"tools": "get_weather"}"#,
        #"{"tools": ["get_weather", 2.5]}"#,
        #"{"tools": ["get_weather", null]}"#,
        #"{"tools": [["get_weather"]]}"#,
        #"{"tool": ["get_weather"]}"#,
        "{\"tools\": [\"get_weather\"",
        "",
    ])
    func anAnswerWithoutTheAskedForJSONIsUnreadable(_ answer: String) {
        #expect(SkillSelectorPrompt.chosenNames(in: answer, offered: Self.offered) == nil)
    }

    @Test func aHugeOrBracketHeavyAnswerIsReadOnlyInPart() {
        // A provider that ignores max_tokens: the JSON after the first 16 KiB is not read.
        let padded = String(repeating: "x", count: SkillSelectorPrompt.maxAnswerBytes) + #"{"tools": ["get_weather"]}"#
        #expect(SkillSelectorPrompt.chosenNames(in: padded, offered: Self.offered) == nil)
        // Many openings that never parse: at most 32 are tried, so the JSON after them is not reached.
        let brackets = String(repeating: "{ ", count: SkillSelectorPrompt.maxAttempts) + #"{"tools": ["get_weather"]}"#
        #expect(SkillSelectorPrompt.chosenNames(in: brackets, offered: Self.offered) == nil)
        let fewer = String(repeating: "{ ", count: SkillSelectorPrompt.maxAttempts - 1) + #"{"tools": ["get_weather"]}"#
        #expect(SkillSelectorPrompt.chosenNames(in: fewer, offered: Self.offered) == ["get_weather"])
    }

    @Test func theRequestShowsTheRecentConversationAndTheNumberedCandidates() {
        let messages = [
            Message(role: .system, text: "You are a helpful assistant."),
            Message(role: .user, text: "first question, out of range"),
            Message(role: .user, text: "What's the weather in Lisbon?"),
            Message(role: .assistant, content: [.toolCall(ToolCall(id: "c1", name: "get_weather", arguments: #"{"city":"Lisbon"}"#))]),
            Message(role: .tool, content: [.toolResult(ToolResult(callId: "c1", content: [.text("18 C, sunny")]))]),
            Message(role: .assistant, text: "It is 18 C and sunny in Lisbon."),
            Message(role: .user, text: "thanks"),
            Message(role: .user, text: "and tomorrow?"),
        ]
        let long = String(repeating: "x", count: 500)
        let candidates = [SkillCandidate(name: "get_weather", description: "Weather forecast for a city"),
                          SkillCandidate(name: "send_email", description: long),
                          SkillCandidate(name: "set_reminder")]
        let request = SkillSelectorPrompt.request(messages: messages, candidates: candidates, limit: 4)
        #expect(request.tools.isEmpty && request.temperature == 0 && request.maxTokens == 24 + 16 * 4)
        #expect(request.messages.count == 2 && request.messages[0].role == .system && request.messages[1].role == .user)
        #expect(request.messages[0].text.contains("at most 4 names"))
        let text = request.messages[1].text
        #expect(text.contains("""
        user: What's the weather in Lisbon?
        assistant called: get_weather
        assistant: It is 18 C and sunny in Lisbon.
        user: thanks
        user: and tomorrow?
        """), "\(text)")
        #expect(!text.contains("out of range") && !text.contains("helpful assistant"), "three user turns, no system text")
        #expect(text.contains("1. get_weather: Weather forecast for a city\n2. send_email: xxx") && text.contains("\n3. set_reminder\n"))
        #expect(text.contains(String(repeating: "x", count: SkillSelectorPrompt.maxDescriptionCharacters) + "…\n"))
        #expect(!text.contains(String(repeating: "x", count: SkillSelectorPrompt.maxDescriptionCharacters + 1)))
    }
}
