import Testing
import SkillGateCore
@testable import SkillGateRouting

@Suite struct TaskFeaturesTests {
    private func scan(_ text: String) -> MarkerScan {
        var s = MarkerScan()
        s.scan(text)
        return s
    }

    private func found(_ text: String) -> Set<String> {
        Set(scan(text).matched.indices.map { MarkerLexicon.markers[$0].text })
    }

    @Test(arguments: [
        ("Please PROVE it", ["prove"]),
        ("Prove, then derive.", ["prove", "derive"]),
        ("How can I improve this?", []),
        ("approve the proverb", []),
        ("analytics and analysts", []),
        ("analyse vs analyze", ["analyse", "analyze"]),
        ("go step-by-step", ["step by step"]),
        ("Step\nBy  step", ["step by step"]),
        ("one step at a time", []),
        ("the trade-offs", ["trade-offs"]),
        ("\\frac{1}{2} and frac", ["\\frac"]),
        ("a race condition, a race, a condition", ["race condition"]),
        ("请证明这个定理", ["证明", "定理"]),
        ("一步一步地推导", ["一步一步", "推导"]),
        ("为什么？分析一下", ["为什么", "分析"]),
        ("∫ f(x) dx ≤ √2", ["∫", "≤", "√"]),
        ("Why证明", ["why", "证明"]),
    ])
    func markersMatchWholeWordsCaseInsensitivelyAndChineseAnywhere(_ text: String, _ expected: [String]) {
        #expect(found(text) == Set(expected), "\(text)")
    }

    @Test func strengthsSumPerCategory() {
        let s = scan("why why prove")
        #expect(abs(s.strengths.reasoning - 1.6) < 1e-9)
        #expect(s.strengths.math == 0 && s.strengths.code == 0)
        #expect(s.markers(in: .reasoning) == ["prove", "why"])
    }

    @Test(arguments: [
        ("no code here", 0),
        ("```\nlet x = 1\n```", 1),
        ("```swift\na\n```\ntext\n```py\nb\n```", 2),
        ("an unclosed fence ```js\nx", 1),
        ("inline `code` only", 0),
    ])
    func codeFences(_ text: String, _ blocks: Int) {
        #expect(scan(text).codeBlocks == blocks)
    }

    @Test func everyLexiconEntryMatchesItself() {
        for (i, marker) in MarkerLexicon.markers.enumerated() {
            #expect(scan(" " + marker.text + " ").matched.contains(i), "\(marker.text)")
            #expect(scan(marker.text.uppercased()).matched.contains(i), "\(marker.text) uppercased")
        }
    }

    @Test func extractsSizeDepthToolsAndOptions() {
        let tool = ToolDefinition(name: "get_weather", description: "Weather for a city")
        let request = ChatRequest(
            model: "auto",
            messages: [
                Message(role: .system, text: "Analyse everything carefully."),
                Message(role: .user, text: "What's the weather in Zurich? Prove nothing."),
                Message(role: .assistant, content: [.toolCall(ToolCall(id: "c1", name: "get_weather", arguments: #"{"city":"Zurich"}"#))]),
                Message(role: .tool, content: [.toolResult(ToolResult(callId: "c1", text: String(repeating: "sunny ", count: 100)))]),
            ],
            tools: [tool], maxTokens: 4000, responseFormat: ["type": "json_schema"], thinking: ThinkingConfig(enabled: true))
        let f = TaskFeatures(request: request)
        #expect(f.messages == 3)
        #expect(f.toolsOffered == 1)
        #expect(f.answersToolResult)
        #expect(f.structuredOutput)
        #expect(f.maxTokens == 4000)
        #expect(f.thinking)
        // The task is the last user message with text; the system prompt's "Analyse" is not scanned.
        #expect(f.scan.markers(in: .reasoning) == ["prove"])
        let bytes = 29 + 44 + "get_weather".utf8.count + 17 + 16 + 600 + "get_weather".utf8.count + 18 + 120
        #expect(f.estimatedTokens == (bytes + 3) / 4)
    }

    @Test func chineseTextEstimatesAboutOneTokenPerCharacter() {
        let text = String(repeating: "分布式系统的一致性", count: 100)
        let f = TaskFeatures(request: ChatRequest(model: "auto", messages: [Message(role: .user, text: text)]))
        #expect(f.estimatedTokens == (text.utf8.count + 3) / 4)
        #expect(f.estimatedTokens >= 600 && f.estimatedTokens <= 900)
    }

    @Test func plainTextFormatIsNotStructuredOutput() {
        let r = ChatRequest(model: "auto", messages: [Message(role: .user, text: "hi")], responseFormat: ["type": "text"])
        #expect(!TaskFeatures(request: r).structuredOutput)
        #expect(!TaskFeatures(request: r).answersToolResult)
    }

    @Test func emptyRequestHasNoFeatures() {
        let f = TaskFeatures(request: ChatRequest(model: "auto", messages: []))
        #expect(f == TaskFeatures())
    }
}
