import Testing
import SkillGateCore
@testable import SkillGateProviders

@Suite struct PromptToolsParseTests {
    private func parse(_ text: String, offered: [String] = ["get_weather", "current_time"]) throws -> ChatResponse {
        PromptToolsTesting.fold(try PromptToolsTesting.events(text, offered: offered))
    }

    @Test(arguments: [
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
        "<tool_call>{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}</tool_call>",
        "  <tool_call>\n  {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}  \n</tool_call>\n",
        "<tool_call>\n```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```\n</tool_call>",
        "```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```",
        "```\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n```",
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": \"{\\\"city\\\": \\\"Paris\\\"}\"}\n</tool_call>",
        "<tool_call>\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}\n</tool_call>",
        "<tool_call>\n{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}}\n</tool_call>",
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}",
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_",
        "```xml\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n```\n",
        "```\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>```",
    ])
    func readsOneCallInEveryToleratedShape(text: String) throws {
        let response = try parse(text)
        #expect(response.text == "")
        #expect(response.toolCalls == [ToolCall(id: "call_t_0", name: "get_weather", arguments: "{\"city\":\"Paris\"}")])
        #expect(response.finishReason == .toolCalls)
    }

    @Test func keepsTextAroundCallsAndNumbersThem() throws {
        let text = """
            Let me check both.
            <tool_call>
            {"name": "get_weather", "arguments": {"city": "Paris"}}
            </tool_call>
            <tool_call>
            {"name": "current_time", "arguments": {}}
            </tool_call>
            Done.
            """
        let response = try parse(text)
        #expect(response.content == [
            .text("Let me check both."),
            .toolCall(ToolCall(id: "call_t_0", name: "get_weather", arguments: "{\"city\":\"Paris\"}")),
            .toolCall(ToolCall(id: "call_t_1", name: "current_time", arguments: "{}")),
            .text("Done."),
        ])
    }

    @Test func fenceAroundSeveralCallsIsDroppedAndTextAfterItKept() throws {
        let text = "```xml\n<tool_call>{\"name\": \"current_time\"}</tool_call>\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Bern\"}}</tool_call>\n```\nOK"
        let response = try parse(text)
        #expect(response.toolCalls.map(\.name) == ["current_time", "get_weather"])
        #expect(response.text == "OK")
    }

    @Test func xmlFenceWithoutACallStaysText() throws {
        let text = "```xml\n<note>hi</note>\n```"
        #expect(try parse(text).content == [.text(text)])
    }

    @Test func missingArgumentsMeanAnEmptyObject() throws {
        let response = try parse("<tool_call>{\"name\": \"current_time\"}</tool_call>")
        #expect(response.toolCalls.first?.arguments == "{}")
    }

    @Test func bracesInsideStringsDoNotEndTheObject() throws {
        let response = try parse("<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"P}a{r\\\"is\"}}</tool_call>")
        #expect(response.toolCalls.first?.parsedArguments == ["city": "P}a{r\"is"])
    }

    @Test func plainTextWithAngleBracketsAndBackticksStaysText() throws {
        let text = "If a < b and b <c> then `x` is ```swift\nlet a = \"<tool\"\n``` fine <tool"
        let response = try parse(text)
        #expect(response.content == [.text(text)])
        #expect(response.finishReason == .other("missing"))
    }

    @Test func jsonFenceThatIsNotACallStaysText() throws {
        let text = "Example:\n```json\n{\"name\": \"Ada\", \"age\": 36}\n```\nThat is all."
        #expect(try parse(text).content == [.text(text)])
    }

    @Test func fencedCallToAToolThatWasNotOfferedStaysText() throws {
        let text = "```json\n{\"name\": \"delete_all\", \"arguments\": {}}\n```"
        #expect(try parse(text).content == [.text(text)])
    }

    @Test func taggedCallToAToolThatWasNotOfferedIsRefused() throws {
        let error = #expect(throws: GatewayError.self) {
            try parse("Sure.\n<tool_call>{\"name\": \"delete_all\", \"arguments\": {}}</tool_call>")
        }
        #expect(error?.upstreamCode == PromptToolsClient.toolNotOfferedCode)
        #expect(error?.message.contains("delete_all") == true)
        #expect(error?.message.contains("get_weather") == true)
        #expect(error?.status == 502)
    }

    @Test func noToolsOfferedRefusesEveryTaggedCall() throws {
        let error = #expect(throws: GatewayError.self) {
            try parse("<tool_call>{\"name\": \"get_weather\", \"arguments\": {}}</tool_call>", offered: [])
        }
        #expect(error?.upstreamCode == PromptToolsClient.toolNotOfferedCode)
    }

    @Test(arguments: [
        "<tool_call>not json at all</tool_call>",
        "<tool_call>{\"arguments\": {}}</tool_call>",
        "<tool_call>{\"name\": \"get_weather\", \"arguments\": [1, 2]}</tool_call>",
        "<tool_call>{\"name\": \"get_weather\", \"arguments\": \"city=Paris\"}</tool_call>",
        "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": ",
    ])
    func unreadableTaggedCallIsAnError(text: String) throws {
        let error = #expect(throws: GatewayError.self) { try parse(text) }
        #expect(error?.upstreamCode == PromptToolsClient.malformedToolCallCode)
    }

    @Test func emptyTagsCarryNoCall() throws {
        let response = try parse("Hello <tool_call>\n</tool_call> world")
        #expect(response.content == [.text("Hello world")])
        #expect(response.toolCalls.isEmpty)
    }

    @Test func callIdsAreUniqueAcrossParsers() {
        let a = PromptToolStreamParser(offeredTools: []).idPrefix
        let b = PromptToolStreamParser(offeredTools: []).idPrefix
        #expect(a.hasPrefix("call_"))
        #expect(a != b)
    }

    @Test func secondOpeningTagWithoutClosingStartsANewCall() throws {
        let response = try parse("<tool_call>{\"name\": \"current_time\"}\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}</tool_call>")
        #expect(response.toolCalls.map(\.name) == ["current_time", "get_weather"])
    }

    // Decision 0111: several call objects in one tag were read as the first one only.
    @Test(arguments: [
        "<tool_call>\n{\"name\":\"get_weather\",\"arguments\":{\"city\":\"A\"}}\n{\"name\":\"current_time\",\"arguments\":{}}\n</tool_call>",
        "<tool_call>{\"name\":\"get_weather\",\"arguments\":{\"city\":\"A\"}}, {\"name\":\"current_time\"}</tool_call>",
        "<tool_call>\n[{\"name\":\"get_weather\",\"arguments\":{\"city\":\"A\"}},\n {\"name\":\"current_time\"}]\n</tool_call>",
        "<tool_call>\n```json\n{\"name\":\"get_weather\",\"arguments\":{\"city\":\"A\"}}\n{\"name\":\"current_time\"}\n```\n</tool_call>",
        "<tool_call>\n{\"name\":\"get_weather\",\"arguments\":{\"city\":\"A\"}}\n{\"name\":\"current_time\"}",
    ])
    func severalObjectsInOneTagAreSeveralCallsInOrder(text: String) throws {
        for pieceLength in [1, .max] {
            let response = PromptToolsTesting.fold(try PromptToolsTesting.events(text, pieceLength: pieceLength))
            #expect(response.content == [
                .toolCall(ToolCall(id: "call_t_0", name: "get_weather", arguments: "{\"city\":\"A\"}")),
                .toolCall(ToolCall(id: "call_t_1", name: "current_time", arguments: "{}")),
            ])
            #expect(response.finishReason == .toolCalls)
        }
    }

    @Test(arguments: [
        "<tool_call>{\"name\":\"current_time\"}\n{\"note\": 1}</tool_call>",
        "<tool_call>{\"name\":\"current_time\"}\n{\"name\": \"get_weather\", \"arguments\": {\"city\": </tool_call>",
    ])
    func anUnreadableSecondObjectInATagIsAnError(text: String) throws {
        let error = #expect(throws: GatewayError.self) { try parse(text) }
        #expect(error?.upstreamCode == PromptToolsClient.malformedToolCallCode)
    }

    @Test func aSecondObjectCallingAToolNotOfferedIsRefused() throws {
        let error = #expect(throws: GatewayError.self) {
            try parse("<tool_call>{\"name\":\"current_time\"}\n{\"name\":\"delete_all\"}</tool_call>")
        }
        #expect(error?.upstreamCode == PromptToolsClient.toolNotOfferedCode)
        #expect(error?.message.contains("delete_all") == true)
    }

    @Test(arguments: [1, 3, Int.max])
    func anUnclosedTagInProseIsText(pieceLength: Int) throws {
        let text = "You can use the <tool_call> tag to call tools, but I will just answer: 42."
        let response = PromptToolsTesting.fold(try PromptToolsTesting.events(text, pieceLength: pieceLength))
        #expect(response.content == [.text(text)])
    }

    @Test(arguments: [1, 3, Int.max])
    func aTagInProseEndedByARealCallIsText(pieceLength: Int) throws {
        let text = "Calls go in a <tool_call> tag, like this:\n<tool_call>{\"name\": \"current_time\"}</tool_call>"
        let response = PromptToolsTesting.fold(try PromptToolsTesting.events(text, pieceLength: pieceLength))
        #expect(response.content == [
            .text("Calls go in a <tool_call> tag, like this:"),
            .toolCall(ToolCall(id: "call_t_0", name: "current_time", arguments: "{}")),
        ])
    }
}
