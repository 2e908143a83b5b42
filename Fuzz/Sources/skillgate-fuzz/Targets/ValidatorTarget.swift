import SkillGateCore
import SkillGateSkills

/// The argument validator (SkillGateSkills/Validation). The input is a JSON Schema, a NUL byte,
/// and the arguments text. Invariant: arguments it accepts, after its coercions, are accepted
/// again unchanged (the validator never hands a skill a value its own schema forbids).
enum ValidatorTarget: FuzzTarget {
    static func run(_ data: [UInt8]) {
        let nul = data.firstIndex(of: 0) ?? data.endIndex
        guard let schema = try? JSONValue.parse(data[..<nul]) else { return }
        let arguments = nul < data.endIndex ? String(decoding: data[(nul + 1)...], as: UTF8.self) : ""
        guard let accepted = try? ArgumentValidator.validate(arguments: arguments, schema: schema, tool: "t") else { return }
        let again = Result { () throws(ArgumentValidationError) in try ArgumentValidator.validate(accepted.value, schema: schema, tool: "t") }
        switch again {
        case .success(let second):
            invariant(second.value == accepted.value, "coerced again: \(accepted.value.serialized()) -> \(second.value.serialized())")
        case .failure(let error):
            invariant(false, "accepted \(accepted.value.serialized()) then rejected it: \(error)")
        }
    }

    static func seeds(_ fixtures: Fixtures) -> [[UInt8]] {
        let objects = fixtures.allObjects()
        // Tool schemas (OpenAI `parameters`, Anthropic `input_schema`, Gemini `parameters`) ...
        let schemas = objects.compactMap { $0["parameters"] ?? $0["input_schema"] }.filter { $0.objectValue != nil }
        // ... and recorded call arguments.
        let arguments = objects.compactMap { o -> String? in
            guard let a = o["arguments"] ?? o["input"] ?? o["args"] else { return nil }
            return a.stringValue ?? a.serialized()
        }
        var out: [[UInt8]] = []
        for (i, schema) in schemas.enumerated() {
            let args = arguments.isEmpty ? "{}" : arguments[i % arguments.count]
            out.append(schema.serializedBytes() + [0] + Array(args.utf8))
        }
        let handmade = #"{"type":"object","required":["n"],"additionalProperties":false,"properties":{"n":{"type":"integer","minimum":1,"maximum":9},"s":{"type":["string","null"],"enum":["A","b"]},"l":{"type":"array","items":{"anyOf":[{"type":"number"},{"type":"boolean"}]},"maxItems":2},"o":{"allOf":[{"type":"object"}],"nullable":true,"properties":{"c":{"const":"x"}}}}}"#
        out.append(Array(handmade.utf8) + [0] + Array(#"{"n":"3","s":"a","l":"true","o":"{\"c\":\"x\"}"}"#.utf8))
        return out
    }
}
