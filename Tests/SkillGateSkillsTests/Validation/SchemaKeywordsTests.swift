import Testing
import SkillGateCore
@testable import SkillGateSkills

/// The keywords the schema walk reads are each found by their exact name, and nothing else is taken for one.
@Suite struct SchemaKeywordsTests {
    static let names = ["allOf", "anyOf", "oneOf", "nullable", "type", "properties", "required", "items", "const", "enum",
                        "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                        "additionalProperties", "minItems", "maxItems"]

    @Test func eachKeywordIsItsOwnBit() {
        let bits = Self.names.map { SchemaKeywords.keyword($0).rawValue }
        #expect(bits.allSatisfy { $0 != 0 && $0 & ($0 - 1) == 0 }, "one bit each")
        #expect(Set(bits).count == Self.names.count, "no two keywords share a bit")
        let all = JSONObject(Self.names.map { JSONObject.Member(key: $0, value: true) })
        #expect(SchemaKeywords(of: all).rawValue == bits.reduce(0, |))
    }

    @Test(arguments: ["", "Type", "types", "enum ", "ENUM", "item", "allof", "minimums", "Required", "description", "title",
                      "$ref", "pattern", "format", "exclusiveMinimun", "additionalproperties", "propertie", "properties\u{0}"])
    func otherNamesAreNoKeyword(_ name: String) {
        #expect(SchemaKeywords.keyword(name).isEmpty)
    }

    @Test func aDuplicatedKeywordIsFoundAndTheObjectsLookupKeepsTheFirst() {
        let schema = JSONObject([JSONObject.Member(key: "type", value: "integer"), JSONObject.Member(key: "type", value: "string")])
        #expect(SchemaKeywords(of: schema) == .type)
        #expect(SchemaWalk.types(of: schema) == ["integer"])
    }
}
