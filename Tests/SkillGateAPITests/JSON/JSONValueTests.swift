import Foundation
import SkillGateAPI
import Testing

@Suite("JSONValue")
struct JSONValueTests {
    @Test(arguments: [
        (#"null"#, JSONValue.null),
        (#"true"#, .bool(true)),
        (#"-2.5"#, .number(-2.5)),
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
