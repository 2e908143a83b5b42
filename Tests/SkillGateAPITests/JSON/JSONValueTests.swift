import Foundation
import SkillGateAPI
import Testing

@Suite("JSONValue")
struct JSONValueTests {
    @Test(arguments: [
        (#"null"#, JSONValue.null),
        (#"true"#, .bool(true)),
        (#"-2.5"#, .number(JSONNumber(-2.5))),
        (#""ünï\n""#, .string("ünï\n")),
        (#"[1,"a",[]]"#, JSONValue.array([1, "a", []])),
        (#"{"b":{"c":false},"a":null}"#, JSONValue.object(["a": nil, "b": ["c": false]])),
    ])
    func decodesEveryKindOfValue(_ json: String, _ expected: JSONValue) throws {
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) == expected)
    }

    @Test func encodesObjectsSortedAndIntegralNumbersAsIntegers() throws {
        let value: JSONValue = ["zeta": 1, "alpha": [2.0, 0.5, "x/y"], "mid": ["b": true, "a": nil]]
        let compact = String(decoding: try CompactJSONEncoder().encode(value), as: UTF8.self)
        #expect(compact == #"{"alpha":[2,0.5,"x/y"],"mid":{"a":null,"b":true},"zeta":1}"#)
        // Foundation's encoder reads the same value back.
        let foundation = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: foundation) == value)
    }

    @Test func accessorsReadTheValue() {
        let value: JSONValue = ["n": 3, "f": 2.5, "s": "x", "b": true, "a": [1, 2], "o": ["k": "v"]]
        #expect(value["n"]?.intValue == 3)
        #expect(value["f"]?.intValue == nil)
        #expect(value["f"]?.doubleValue == 2.5)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["b"]?.boolValue == true)
        #expect(value["a"]?[1]?.intValue == 2)
        #expect(value["a"]?[5] == nil)
        #expect(value["o"]?.objectValue == ["k": "v"])
        #expect(value["missing"] == nil)
        #expect(JSONValue.null.isNull)
    }
}

@Suite struct JSONNumberTests {
    @Test(arguments: ["0", "-1", "1.50", "12345678901234567890", "-1.5e3", "2E+10"])
    func literalsPassThroughCompactJSONDigitForDigit(_ literal: String) throws {
        let n = try #require(JSONNumber(literal: literal))
        let value = JSONValue.object(["n": .number(n)])
        #expect(String(decoding: try CompactJSONEncoder().encode(value), as: UTF8.self) == #"{"n":"# + literal + "}")
    }

    @Test(arguments: ["", "-", "01", "1.", ".5", "1e", "1-+e", "NaN", "0x10", "1 "])
    func nonNumbersAreRefused(_ text: String) {
        #expect(JSONNumber(literal: text) == nil)
    }

    @Test func decodingKeepsLargeIntegersExact() throws {
        let v = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"id":12345678901234567890,"x":2.25}"#.utf8))
        #expect(v["id"]?.doubleValue == 12345678901234567890)
        #expect(v["x"]?.doubleValue == 2.25)
        if case .number(let n)? = v["id"] { #expect(n.text == "12345678901234567890") } else { Issue.record("not a number") }
    }
}
