import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateSkills

/// The lazy schema walk (decision 0071) against the walk it replaced (`ReferenceSchemaWalk`): for every schema and
/// arguments text, the same accepted value and coercions, or the same issues in the same order with the same paths and
/// messages. Hand-written arguments cover each keyword; generated ones (a fixed seed) cover their mixtures.
@Suite struct SchemaWalkEquivalenceTests {
    static let schemas: [NamedSchema] = [
        NamedSchema("weather", ArgumentValidatorTests.schema),
        NamedSchema("fuzz seed", try! JSONValue.parse(#"""
            {"type":"object","required":["n"],"additionalProperties":false,"properties":{"n":{"type":"integer","minimum":1,"maximum":9},
             "s":{"type":["string","null"],"enum":["A","b"]},"l":{"type":"array","items":{"anyOf":[{"type":"number"},{"type":"boolean"}]},"maxItems":2},
             "o":{"allOf":[{"type":"object"}],"nullable":true,"properties":{"c":{"const":"x"}}}}}
            """#)),
        NamedSchema("extra properties checked", try! JSONValue.parse(#"""
            {"properties":{"a":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":10}},"additionalProperties":{"type":"integer"},
             "required":["a","b",7]}
            """#)),
        NamedSchema("types and bounds", try! JSONValue.parse(#"""
            {"type":"object","properties":{"i":{"type":["integer","number"]},"j":{"type":["integer"]},"k":{"type":[]},"m":{"type":[3,"string"]},
             "x":{"type":"number","minimum":-1.5,"maximum":2,"exclusiveMinimum":true},"y":{"minimum":0},"z":{"type":"integer","exclusiveMaximum":5},
             "t":{"type":"string","minLength":2,"maxLength":5},"u":{"type":"unknown"},"v":{"type":"null"},"w":{"type":5,"items":{"type":"integer"}}}}
            """#)),
        NamedSchema("nested arrays", try! JSONValue.parse(#"""
            {"type":"object","properties":{"rows":{"type":"array","minItems":1,"items":{"type":"array","items":{"type":"object",
             "properties":{"id":{"type":"integer"},"tags":{"type":"array","items":{"enum":["red","Green",3]}}},"required":["id"]}}},
             "flags":{"type":"array","items":true},"none":{"type":"array","items":false},"any":{"items":{"type":"boolean"}}}}
            """#)),
        NamedSchema("alternatives", try! JSONValue.parse(#"""
            {"type":"object","properties":{"when":{"oneOf":[{"type":"integer"},{"type":"string","maxLength":3}]},
             "either":{"anyOf":[{"type":"object","properties":{"p":{"type":"integer"}},"required":["p"]},{"type":"array","items":{"type":"integer"}}]},
             "all":{"allOf":[{"type":"number"},{"minimum":2},{"type":"integer"}]},"const":{"const":2},"no":false,"yes":true,
             "empty":{"anyOf":[]}},"additionalProperties":false}
            """#)),
        NamedSchema("top-level array schema", try! JSONValue.parse(#"{"type":"array","items":{"type":"integer"}}"#)),
        NamedSchema("boolean false", .bool(false)),
        NamedSchema("not an object", .string("object")),
    ]

    static let handWritten = [
        "", "  ", "{}", "[]", "null", "3", "\"text\"", "{bad", #"{"a":1,"a":"2"}"#,
        #"{"city":"Paris","days":"3","unit":"Celsius","tags":"solo","origin":"{\"lat\":1,\"lon\":\"2\"}","stops":[{"name":5},{}]}"#,
        #"{"city":null,"days":3.0,"threshold":0,"note":"far too long a note","mode":7,"when":"1.5","detailed":"maybe"}"#,
        #"{"n":"3","s":"a","l":"true","o":"{\"c\":\"x\"}"}"#, #"{"n":0,"s":"c","l":[1,true,"x"],"o":null,"q":1}"#,
        #"{"a":"5","b":"6","c":2.0,"d":"x"}"#, #"{"a":10,"b":1.5}"#,
        #"{"i":"4","j":4.0,"k":"any","m":true,"x":-1.5,"y":-2,"z":"5","t":"é","u":{},"v":"null","w":["1",2]}"#,
        #"{"rows":[[{"id":"1","tags":["RED","green","3"]},{"tags":"blue"}],[]],"flags":[1,"a"],"none":[1],"any":["true"]}"#,
        #"{"rows":[],"flags":"x","none":[],"any":"false"}"#,
        #"{"when":"abcd","either":{"p":"1"},"all":"3","const":2.0,"no":1,"yes":null,"empty":1}"#,
        #"{"when":12,"either":["1",2],"all":1,"const":"2","extra":true}"#,
        #"["1",2,3.0,"x"]"#, #"[]"#, #"{"": {"": "x"}}"#,
    ]

    struct NamedSchema: CustomTestStringConvertible, Sendable {
        let name: String
        let schema: JSONValue
        init(_ name: String, _ schema: JSONValue) { self.name = name; self.schema = schema }
        var testDescription: String { name }
    }

    @Test(arguments: schemas)
    func handWrittenArgumentsGetTheSameAnswer(_ schema: NamedSchema) {
        for arguments in Self.handWritten { Self.expectSameAnswer(arguments, schema) }
    }

    @Test(arguments: schemas)
    func generatedArgumentsGetTheSameAnswer(_ schema: NamedSchema) {
        var generator = ArgumentsGenerator(seed: UInt64(truncatingIfNeeded: schema.name.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }),
                                           keys: Self.keys(of: schema.schema))
        for _ in 0..<400 { Self.expectSameAnswer(generator.arguments(), schema) }
    }

    static func expectSameAnswer(_ arguments: String, _ schema: NamedSchema) {
        let new = Result { () throws(ArgumentValidationError) in try ArgumentValidator.validate(arguments: arguments, schema: schema.schema, tool: "t") }
        let old = ReferenceValidator.validate(arguments: arguments, schema: schema.schema)
        switch (new, old) {
        case (.success(let a), .success(let b)):
            #expect(a.value == b.value && a.coercions == b.coercions, "\(schema.name): \(arguments)")
        case (.failure(let a), .failure(let b)):
            #expect(a.issues == b.issues, "\(schema.name): \(arguments)")
        default:
            Issue.record("\(schema.name): \(arguments): \(new) against \(old)")
        }
    }

    /// Every property name in a schema, at any depth (the keys the generator picks from, beside made-up ones).
    static func keys(of schema: JSONValue) -> [String] {
        var out: [String] = []
        func visit(_ v: JSONValue) {
            switch v {
            case .object(let o):
                for m in o {
                    if m.key == "properties", let props = m.value.objectValue { out += props.keys }
                    visit(m.value)
                }
            case .array(let a): a.forEach(visit)
            default: break
            }
        }
        visit(schema)
        return out.isEmpty ? ["a"] : out
    }
}

/// Random arguments texts: objects whose keys mostly come from the schema, with values of every kind, including the
/// strings a coercion reads ("3", "2.5", "true", a JSON object or array as text) and numbers written as floats.
struct ArgumentsGenerator {
    private var bits: SplitMix
    private let keys: [String]

    init(seed: UInt64, keys: [String]) {
        bits = SplitMix(seed: seed | 1)
        self.keys = keys
    }

    mutating func arguments() -> String {
        next(8) == 0 ? value(depth: 0).serialized() : object(depth: 0).serialized()
    }

    private mutating func next(_ bound: Int) -> Int {
        Int(bits.next() % UInt64(bound))
    }

    private mutating func object(depth: Int) -> JSONValue {
        var o = JSONObject()
        for _ in 0..<next(6) {
            let key = next(5) == 0 ? ["x", "", "extra", "Q"][next(4)] : keys[next(keys.count)]
            o.append(key, value(depth: depth + 1))
        }
        return .object(o)
    }

    private mutating func value(depth: Int) -> JSONValue {
        let scalars: [JSONValue] = [
            3, 0, -1, .number("3.0"), .number("-0"), .number("2.5"), .number("1e2"), .number("12345678901234567890"), 1.5,
            "3", " 4 ", "2.5", "x", "", "true", "False", "null", "Celsius", "red", "é", "[1,2]", #"{"p":1}"#, "abcdef",
            true, false, .null,
        ]
        switch depth >= 3 ? 0 : next(5) {
        case 1: return object(depth: depth)
        case 2: return .array((0..<next(4)).map { _ in value(depth: depth + 1) })
        default: return scalars[next(scalars.count)]
        }
    }
}
