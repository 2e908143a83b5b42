import Testing
import SkillGateCore
@testable import SkillGateSkills

@Suite struct ArgumentValidatorTests {
    static let schema: JSONValue = [
        "type": "object",
        "properties": [
            "city": ["type": "string", "description": "City name"],
            "days": ["type": "integer", "minimum": 1, "maximum": 14],
            "unit": ["type": "string", "enum": ["celsius", "fahrenheit"]],
            "detailed": ["type": "boolean"],
            "threshold": ["type": "number", "exclusiveMinimum": 0],
            "tags": ["type": "array", "items": ["type": "string"], "maxItems": 3],
            "note": ["type": "string", "nullable": true, "maxLength": 10],
            "origin": ["type": "object", "properties": ["lat": ["type": "number"], "lon": ["type": "number"]], "required": ["lat", "lon"]],
            "stops": ["type": "array", "items": ["type": "object", "properties": ["name": ["type": "string"]], "required": ["name"]]],
            "when": ["anyOf": [["type": "string"], ["type": "integer"]]],
            "mode": ["type": ["string", "null"]],
        ],
        "required": ["city"],
    ]

    private func valid(_ arguments: String) throws -> ValidatedArguments {
        try ArgumentValidator.validate(arguments: arguments, schema: Self.schema, tool: "get_weather")
    }

    private func issues(_ arguments: String, schema: JSONValue = schema) -> [ValidationIssue] {
        do {
            _ = try ArgumentValidator.validate(arguments: arguments, schema: schema, tool: "get_weather")
            return []
        } catch { return error.issues }
    }

    @Test(arguments: [
        #"{"city":"Paris"}"#,
        #"{"city":"Paris","days":3,"unit":"celsius","detailed":false,"threshold":0.5}"#,
        #"{"city":"Paris","tags":["a","b"],"note":null,"origin":{"lat":48.8,"lon":2.3}}"#,
        #"{"city":"Paris","stops":[{"name":"Lyon"}],"when":"tomorrow","mode":null}"#,
        #"{"city":"Paris","when":7,"mode":"fast","extra":"allowed without additionalProperties:false"}"#,
    ])
    func acceptsValidArgumentsUnchanged(_ arguments: String) throws {
        let v = try valid(arguments)
        #expect(v.coercions.isEmpty)
        #expect(v.value == (try JSONValue.parse(arguments)))
    }

    @Test(arguments: [
        (#"{"city":"Paris","days":"3"}"#, "days", JSONValue.int(3)),
        (#"{"city":"Paris","days":3.0}"#, "days", .int(3)),
        (#"{"city":"Paris","days":" 4 "}"#, "days", .int(4)),
        (#"{"city":"Paris","threshold":"2.5"}"#, "threshold", .number("2.5")),
        (#"{"city":"Paris","detailed":"true"}"#, "detailed", .bool(true)),
        (#"{"city":"Paris","detailed":"False"}"#, "detailed", .bool(false)),
        (#"{"city":"Paris","unit":"Celsius"}"#, "unit", .string("celsius")),
        (#"{"city":75001}"#, "city", .string("75001")),
        (#"{"city":"Paris","tags":"solo"}"#, "tags", .array(["solo"])),
        (#"{"city":"Paris","tags":"[\"x\",\"y\"]"}"#, "tags", .array(["x", "y"])),
        (#"{"city":"Paris","origin":"{\"lat\":1,\"lon\":2}"}"#, "origin", JSONValue.object(["lat": 1, "lon": 2])),
    ])
    func toleratesWhatModelsSendAndCoerces(_ arguments: String, _ key: String, _ expected: JSONValue) throws {
        let v = try valid(arguments)
        #expect(v.value[key] == expected)
        #expect(v.coercions.contains(key))
    }

    @Test func emptyArgumentsMeanAnEmptyObject() throws {
        let v = try ArgumentValidator.validate(arguments: "  ", schema: ["type": "object", "properties": [:]], tool: "now")
        #expect(v.value == .object([:]))
        #expect(issues("") .first?.path == "city")
    }

    @Test(arguments: [
        (#"{}"#, "city", "missing required property (expected a string — City name)"),
        (#"{"city":"Paris","days":"three"}"#, "days", "expected an integer, got the string \"three\""),
        (#"{"city":"Paris","days":2.5}"#, "days", "expected an integer, got the number 2.5"),
        (#"{"city":"Paris","days":0}"#, "days", "must be at least 1, got 0"),
        (#"{"city":"Paris","days":15}"#, "days", "must be at most 14"),
        (#"{"city":"Paris","threshold":0}"#, "threshold", "must be greater than 0"),
        (#"{"city":"Paris","unit":"kelvin"}"#, "unit", #"must be one of "celsius", "fahrenheit""#),
        (#"{"city":"Paris","detailed":"yes"}"#, "detailed", "expected a boolean"),
        (#"{"city":"Paris","tags":["a","b","c","d"]}"#, "tags", "at most 3 item(s)"),
        (#"{"city":"Paris","tags":[1,{"x":1}]}"#, "tags[1]", "expected a string, got an object"),
        (#"{"city":"Paris","note":"much too long text"}"#, "note", "at most 10 character(s)"),
        (#"{"city":"Paris","origin":{"lat":1}}"#, "origin.lon", "missing required property"),
        (#"{"city":"Paris","stops":[{"name":"A"},{}]}"#, "stops[1].name", "missing required property"),
        (#"{"city":"Paris","when":{"day":1}}"#, "when", "matches none of the allowed shapes (a string or an integer)"),
        (#"{"city":null}"#, "city", "expected a string — City name, got null"),
        (#"[1,2]"#, "", "expected an object, got an array"),
        (#"{"city":"Paris""#, "", "not valid JSON"),
    ])
    func reportsWhatIsWrongWhereAndWhatWasExpected(_ arguments: String, _ path: String, _ fragment: String) {
        let found = issues(arguments)
        #expect(found.contains { $0.path == path && $0.message.contains(fragment) }, "\(found)")
    }

    @Test func anyOfPrefersAnExactFitOverACoercedOne() throws {
        #expect(try valid(#"{"city":"P","when":7}"#).value["when"] == .int(7))
        #expect(try valid(#"{"city":"P","when":"7"}"#).value["when"] == .string("7"))
        let numbersFirst: JSONValue = ["type": "object", "properties": ["v": ["oneOf": [["type": "integer"], ["type": "boolean"]]]]]
        let v = try ArgumentValidator.validate(arguments: #"{"v":"12"}"#, schema: numbersFirst, tool: "t")
        #expect(v.value["v"] == .int(12) && v.coercions == ["v"])
    }

    @Test func additionalPropertiesFalseNamesTheAllowedOnes() {
        let schema: JSONValue = ["type": "object", "properties": ["a": ["type": "string"]], "additionalProperties": false]
        let found = issues(#"{"a":"x","b":1}"#, schema: schema)
        #expect(found.map(\.description) == ["b: unknown property; the allowed properties are: a"])
    }

    @Test func additionalPropertiesSchemaValidatesExtras() {
        let schema: JSONValue = ["type": "object", "additionalProperties": ["type": "integer"]]
        #expect(issues(#"{"a":1,"b":"2"}"#, schema: schema).isEmpty)
        #expect(issues(#"{"a":1,"b":"x"}"#, schema: schema).first?.path == "b")
    }

    @Test func allOfConstAndBooleanSchemas() {
        let schema: JSONValue = ["type": "object", "properties": [
            "v": ["allOf": [["type": "integer"], ["minimum": 5]]],
            "k": ["const": "fixed"],
            "never": false,
            "anything": true,
        ]]
        #expect(issues(#"{"v":"7","k":"fixed","anything":[1]}"#, schema: schema).isEmpty)
        let found = issues(#"{"v":3,"k":"other","never":1}"#, schema: schema).map(\.path)
        #expect(found.sorted() == ["k", "never", "v"])
    }

    @Test func unsupportedKeywordsAreAcceptedAsIs() {
        let schema: JSONValue = ["type": "object", "properties": ["s": ["type": "string", "pattern": "^[0-9]+$", "format": "email"], "r": ["$ref": "#/defs/x"]]]
        #expect(issues(#"{"s":"abc","r":{"any":"thing"}}"#, schema: schema).isEmpty)
    }

    @Test func theErrorMessageTellsTheModelWhatToDo() {
        do {
            _ = try ArgumentValidator.validate(arguments: #"{"days":"x"}"#, schema: Self.schema, tool: "get_weather")
            Issue.record("expected a validation error")
        } catch {
            let text = error.description
            #expect(text.hasPrefix("Invalid arguments for tool \"get_weather\": "))
            #expect(text.contains("city: missing required property (expected a string — City name); add it"))
            #expect(text.contains("days: expected an integer"))
            #expect(text.hasSuffix("Call get_weather again with arguments that match its parameters schema."))
        }
    }
}
