import Testing
import SkillGateCore
@testable import SkillGateProviders

@Suite struct PromptToolStreamParserTests {
    static let texts: [String] = [
        "Plain answer with no calls.",
        "Multi-byte: héllo wörld, 日本語のテキスト, emoji 👩‍👩‍👧 and ∑ < ∞.",
        "a < b, b <= c, <b>bold</b>, <tool> and <tool_calls> are just text <",
        "Before\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Zürich 🇨🇭\"}}\n</tool_call>\nAfter",
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"{nested} \\\"quoted\\\" } brace\"}}\n</tool_call>",
        "Two calls:\n<tool_call>\n{\"name\": \"current_time\", \"arguments\": {}}\n</tool_call>\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n</tool_call>",
        "Text, then ```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Lima\"}}\n``` then more text.",
        "Code: ```swift\nlet x = a < b ? \"`\" : \"``\"\n``` and `inline` ticks ``.",
        "```json\n{\"not\": \"a call\"}\n```",
        "Unclosed at end <tool_call>\n{\"name\": \"current_time\", \"arguments\": {}}",
        "Trailing spaces and newlines stay   \n\n",
        "<tool_call>{\"name\":\"current_time\",\"arguments\":{}}</tool_call>   trailing text after a call",
        "Held prefix at the very end <tool_ca",
        "Fence at the very end ``",
        "Wrapped:\n```xml\n<tool_call>\n{\"name\": \"current_time\", \"arguments\": {}}\n</tool_call>\n```\nthen text",
        "```xml\n<notacall/>\n```",
        // Found by fuzzing: the answer depended on where the deltas split a fence's info line.
        "```jsoe\":0ion\":\"snowy\"},{\"location```x\n{/\":1,<tool_call>not json</ootx`\n``",
        "```json" + String(repeating: " ", count: 30) + "\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\n```",
        "```json" + String(repeating: " ", count: 70) + "\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\n```",
        // Decision 0111: two calls in one tag, and tags opened in prose.
        "Both:\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"A\"}}\n{\"name\": \"current_time\"}\n</tool_call>\nok",
        "Use the <tool_call> tag  to call tools; answer: 42 <",
        "Wrapped ```xml\n<tool_call> is a tag ```\nand <tool_call> another <tool_call>{\"name\": \"current_time\"}</tool_call> end",
    ]

    @Test(arguments: texts)
    func wholeAndCharacterByCharacterGiveTheSameAnswer(text: String) throws {
        let whole = try PromptToolsTesting.events(text)
        let byChar = try PromptToolsTesting.events(text, pieceLength: 1)
        let byThree = try PromptToolsTesting.events(text, pieceLength: 3)
        #expect(PromptToolsTesting.fold(byChar) == PromptToolsTesting.fold(whole))
        #expect(PromptToolsTesting.fold(byThree) == PromptToolsTesting.fold(whole))
        #expect(PromptToolsTesting.callEvents(byChar) == PromptToolsTesting.callEvents(whole))
    }

    @Test func textWithoutTagsKeepsEveryCharacter() throws {
        for text in Self.texts where !text.contains("tool_call>") && !text.contains("\"name\"") {
            #expect(PromptToolsTesting.fold(try PromptToolsTesting.events(text, pieceLength: 1)).text == text)
        }
    }

    @Test func neverLeaksAPartialTag() throws {
        var parser = PromptToolStreamParser(offeredTools: ["current_time"], idPrefix: "c")
        var leaked = ""
        for ch in "Hi <tool_call>{\"name\": \"current_time\"}</tool_call>" {
            for case .textDelta(let t) in try parser.feed(String(ch)) { leaked += t }
        }
        for case .textDelta(let t) in try parser.finish() { leaked += t }
        #expect(leaked == "Hi")
    }

    @Test func releasesTextAsSoonAsItCannotBeATag() throws {
        var parser = PromptToolStreamParser(offeredTools: [])
        #expect(try parser.feed("a <") == [.textDelta("a")])
        #expect(try parser.feed("b") == [.textDelta(" <b")])
        #expect(try parser.feed(" <tool_c") == [])
        #expect(try parser.feed("alls>") == [.textDelta(" <tool_calls>")])
    }

    @Test func emitsTheCallOnceItsClosingTagArrives() throws {
        var parser = PromptToolStreamParser(offeredTools: ["get_weather"], idPrefix: "call_x")
        #expect(try parser.feed("<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}") == [])
        #expect(try parser.feed("</tool_call>") == [
            .toolCallStart(ordinal: 0, id: "call_x0", name: "get_weather"),
            .toolCallArgumentsDelta(ordinal: 0, fragment: "{\"city\":\"Rome\"}"),
            .toolCallEnd(ordinal: 0),
        ])
        #expect(parser.callCount == 1)
    }
}
