import Testing
import SkillGateCore
@testable import SkillGateProviders

@Suite struct DemoIntentTests {
    @Test(arguments: [
        ("What time is it?", DemoIntent.time),
        ("what's the date today", .time),
        ("What day is it?", .time),
        ("What is 17*23?", .arithmetic(expression: "17*23")),
        ("calculate 2 + 3 * (4 - 1) please", .arithmetic(expression: "2 + 3 * (4 - 1)")),
        ("What's 12 x 4", .arithmetic(expression: "12 x 4")),
        ("What's the weather in New York today?", .weather(location: "New York")),
        ("Will it rain in Paris?", .weather(location: "Paris")),
        ("weather forecast", .weather(location: nil)),
        ("Tell me a joke", .none),
        ("Have a nice day", .none),
        ("I have 3 cats", .none),
    ])
    func detectsWhatTheUserAsksFor(text: String, expected: DemoIntent) {
        #expect(DemoIntent.detect(text) == expected)
    }

    @Test func matchesToolsByNameAndDescriptionWords() {
        let tools = [
            ToolDefinition(name: "update_note", description: "Changes a note"),
            ToolDefinition(name: "clock", description: "Tells the current time"),
            ToolDefinition(name: "eval", description: "Evaluates an arithmetic expression"),
            ToolDefinition(name: "lookup", description: "Weather forecast for a place"),
        ]
        #expect(DemoIntent.time.bestTool(in: tools)?.name == "clock")
        #expect(DemoIntent.arithmetic(expression: "1+1").bestTool(in: tools)?.name == "eval")
        #expect(DemoIntent.weather(location: nil).bestTool(in: tools)?.name == "lookup")
        #expect(DemoIntent.none.bestTool(in: tools) == nil)
        #expect(DemoIntent.time.bestTool(in: [tools[0]]) == nil)  // "update" is not "date"
    }

    @Test func fillsTheFirstStringPropertyAndRequiredDefaults() {
        let tool = ToolDefinition(name: "calculator", parameters: [
            "type": "object",
            "properties": ["precision": ["type": "integer"], "expression": ["type": "string"],
                           "mode": ["type": "string", "enum": ["exact", "approx"]], "note": ["type": "string"]],
            "required": ["expression", "precision", "mode"],
        ])
        let args = DemoIntent.arithmetic(expression: "17*23").arguments(for: tool, userText: "What is 17*23?")
        #expect(args == ["precision": 0, "expression": "17*23", "mode": "exact"])
    }

    @Test func prettyPrintsExpressions() {
        #expect(DemoIntent.pretty("17*23") == "17 × 23")
        #expect(DemoIntent.pretty("(2+3) / 4") == "(2 + 3) ÷ 4")
    }

    @Test func judgesWhichIntentAToolServes() {
        #expect(DemoIntent.served(by: "current_time", description: nil) == .time)
        #expect(DemoIntent.served(by: "calculator", description: nil) == .arithmetic(expression: ""))
        #expect(DemoIntent.served(by: "get_weather", description: "Weather at a given time") == .weather(location: nil))
        #expect(DemoIntent.served(by: "send_mail", description: "Sends an email") == .none)
    }
}
