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

    /// Names no provider takes, which would break or fake `x-skillgate-skills` on the way back.
    @Test(arguments: [("a\u{0}b", "U+0000"), ("a\u{0B}b", "U+000B"), ("tab\tname", "U+0009"), ("a\u{7F}", "U+007F"),
                      ("evil;visible=calculator", "a semicolon"), ("a,b", "a comma")])
    func controlCharactersCommasAndSemicolonsAreRefused(_ name: String, _ says: String) {
        do {
            try ToolNameRule.check(name, param: "tools[1].function.name")
            Issue.record("\(name.debugDescription) passed")
        } catch {
            #expect(error.status == 400 && error.param == "tools[1].function.name")
            #expect(error.message.contains(says) && error.message.contains("rename the tool"), "\(error.message)")
        }
    }

    @Test func namesProvidersTakeAndOthersWithoutSeparatorsPass() throws {
        for name in ["get_weather", "search-notes", "mcp.server:tool", "天气", "get weather", "a=b"] {
            try ToolNameRule.check(name, param: "tools[0].function.name")
        }
    }
}
