import Testing
import SkillGateCore
import SkillGateProviders

@Suite struct ToolNameRuleTests {
    @Test func namesUpToTheLimitPassAndLongerOnesAreRefusedWithTheField() throws {
        try ToolNameRule.check("get_weather", param: "tools[0].function.name")
        try ToolNameRule.check(String(repeating: "n", count: ToolNameRule.maxBytes), param: "tools[0].function.name")
        #expect(throws: GatewayError.self) { try ToolNameRule.check(String(repeating: "n", count: ToolNameRule.maxBytes + 1), param: "tools[0].function.name") }
        do {
            try ToolNameRule.check(String(repeating: "天", count: 100), param: "tools[2].name")  // 300 bytes
            Issue.record("a 300-byte name passed")
        } catch {
            #expect(error.status == 400 && error.param == "tools[2].name")
            #expect(error.message.contains("300 bytes long") && error.message.contains("shorten it"))
        }
    }
}
