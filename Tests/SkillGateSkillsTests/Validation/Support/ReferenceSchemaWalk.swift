import SkillGateCore
@testable import SkillGateSkills

/// The schema walk as it was before decision 0071 made it lazy (paths rendered only for an issue or a coercion,
/// unchanged values returned as they are), kept as the oracle its replacement is compared with: the same coerced value,
/// coercions and issues, in the same order, for every input (`SchemaWalkEquivalenceTests`).
struct ReferenceSchemaWalk {
    var issues: [ValidationIssue] = []
    var coercions: [String] = []

    mutating func check(_ value: JSONValue, _ schema: JSONValue, path: String) -> JSONValue {
        if case .bool(let allowed) = schema {
            if !allowed { issue(path, "no value is allowed here; leave it out") }
            return value
        }
        guard let s = schema.objectValue else { return value }
        var value = value
        for sub in s["allOf"]?.arrayValue ?? [] { value = check(value, sub, path: path) }
        if let options = (s["anyOf"] ?? s["oneOf"])?.arrayValue, !options.isEmpty {
            value = alternatives(value, options, path: path)
        }
        if value.isNull, s["nullable"]?.boolValue == true { return value }
        let types = Self.types(of: s)
        if !types.isEmpty {
            guard let conformed = conform(value, to: types, schema: s, path: path) else { return value }
            value = conformed
        }
        value = checkEnum(value, s, path: path)
        switch value {
        case .object(let o): value = checkObject(o, s, path: path)
        case .array(let a): value = checkArray(a, s, path: path)
        case .string(let text): checkString(text, s, path: path)
        case .number: checkNumber(value.doubleValue ?? 0, s, path: path)
        default: break
        }
        return value
    }

    // MARK: types

    /// The schema's types; inferred as object/array from `properties`/`items` when `type` is absent.
    static func types(of s: JSONObject) -> [String] {
        if let t = s["type"]?.stringValue { return [t] }
        if let list = s["type"]?.arrayValue { return list.compactMap(\.stringValue) }
        if s["properties"] != nil || s["required"] != nil { return ["object"] }
        if s["items"] != nil { return ["array"] }
        return []
    }

    private static func matches(_ value: JSONValue, _ type: String) -> Bool {
        switch type {
        case "string": return value.stringValue != nil
        case "integer": return value.intValue != nil
        case "number": return value.doubleValue != nil
        case "boolean": return value.boolValue != nil
        case "object": return value.objectValue != nil
        case "array": return value.arrayValue != nil
        case "null": return value.isNull
        default: return true  // an unknown type name is not the model's fault
        }
    }

    private mutating func conform(_ value: JSONValue, to types: [String], schema: JSONObject, path: String) -> JSONValue? {
        if value.isNull, types.contains("null") { return value }
        if let t = types.first(where: { Self.matches(value, $0) }) {
            // 3.0 for an integer is an integer; write it as one.
            if t == "integer", !types.contains("number"), case .number(let literal) = value, let i = value.intValue, literal != String(i) {
                coercions.append(path)
                return .int(i)
            }
            return value
        }
        for t in types {
            if let coerced = SchemaCoercion.coerce(value, to: t) {
                coercions.append(path)
                return coerced
            }
        }
        issue(path, "expected \(SchemaDescription.describe(.object(schema))), got \(Self.describeValue(value))")
        return nil
    }

    private mutating func alternatives(_ value: JSONValue, _ options: [JSONValue], path: String) -> JSONValue {
        // A shape the value fits as it is wins over one it fits only after coercion.
        var firstFailure: [ValidationIssue] = []
        var coercedFit: (value: JSONValue, coercions: [String])?
        for option in options {
            var sub = ReferenceSchemaWalk()
            let v = sub.check(value, option, path: path)
            if sub.issues.isEmpty {
                if sub.coercions.isEmpty { return v }
                if coercedFit == nil { coercedFit = (v, sub.coercions) }
            } else if firstFailure.isEmpty {
                firstFailure = sub.issues
            }
        }
        if let coercedFit {
            coercions += coercedFit.coercions
            return coercedFit.value
        }
        let shapes = options.map { SchemaDescription.describe($0) }.joined(separator: " or ")
        issue(path, "matches none of the allowed shapes (\(shapes)): " + firstFailure.map(\.description).joined(separator: "; "))
        return value
    }

    // MARK: keywords

    private mutating func checkEnum(_ value: JSONValue, _ s: JSONObject, path: String) -> JSONValue {
        if let c = s["const"], c != value, !(c.doubleValue != nil && c.doubleValue == value.doubleValue) {
            issue(path, "must be \(c.serialized()), got \(Self.describeValue(value))")
        }
        guard let options = s["enum"]?.arrayValue, !options.contains(value) else { return value }
        if let d = value.doubleValue, options.contains(where: { $0.doubleValue == d }) { return value }
        if let text = value.stringValue?.lowercased(),
           let match = options.first(where: { $0.stringValue?.lowercased() == text }) {
            coercions.append(path)
            return match
        }
        issue(path, "must be one of \(options.map { $0.serialized() }.joined(separator: ", ")), got \(Self.describeValue(value))")
        return value
    }

    private mutating func checkObject(_ o: JSONObject, _ s: JSONObject, path: String) -> JSONValue {
        let properties = s["properties"]?.objectValue ?? JSONObject()
        for name in s["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where o[name] == nil {
            let expected = properties[name].map { SchemaDescription.describe($0) } ?? "a value"
            issue(Self.child(path, name), "missing required property (expected \(expected)); add it")
        }
        var out = JSONObject()
        for member in o {
            let childPath = Self.child(path, member.key)
            if let propertySchema = properties[member.key] {
                out.append(member.key, check(member.value, propertySchema, path: childPath))
            } else if let extra = s["additionalProperties"] {
                if extra.boolValue == false {
                    let allowed = properties.keys.joined(separator: ", ")
                    issue(childPath, "unknown property; the allowed properties are: \(allowed.isEmpty ? "none" : allowed)")
                    out.append(member.key, member.value)
                } else {
                    out.append(member.key, check(member.value, extra, path: childPath))
                }
            } else {
                out.append(member.key, member.value)
            }
        }
        return .object(out)
    }

    private mutating func checkArray(_ a: [JSONValue], _ s: JSONObject, path: String) -> JSONValue {
        if let min = s["minItems"]?.intValue, a.count < min { issue(path, "needs at least \(min) item(s), got \(a.count)") }
        if let max = s["maxItems"]?.intValue, a.count > max { issue(path, "allows at most \(max) item(s), got \(a.count)") }
        guard let items = s["items"], items.objectValue != nil || items.boolValue != nil else { return .array(a) }
        return .array(a.enumerated().map { i, element in check(element, items, path: "\(path)[\(i)]") })
    }

    private mutating func checkString(_ text: String, _ s: JSONObject, path: String) {
        if let min = s["minLength"]?.intValue, text.count < min { issue(path, "must be at least \(min) character(s) long") }
        if let max = s["maxLength"]?.intValue, text.count > max { issue(path, "must be at most \(max) character(s) long, got \(text.count)") }
    }

    private mutating func checkNumber(_ x: Double, _ s: JSONObject, path: String) {
        let exclusiveMinFlag = s["exclusiveMinimum"]?.boolValue == true, exclusiveMaxFlag = s["exclusiveMaximum"]?.boolValue == true
        if let min = s["minimum"]?.doubleValue {
            if exclusiveMinFlag ? x <= min : x < min { issue(path, "must be \(exclusiveMinFlag ? "greater than" : "at least") \(Self.format(min)), got \(Self.format(x))") }
        }
        if let max = s["maximum"]?.doubleValue {
            if exclusiveMaxFlag ? x >= max : x > max { issue(path, "must be \(exclusiveMaxFlag ? "less than" : "at most") \(Self.format(max)), got \(Self.format(x))") }
        }
        if let min = s["exclusiveMinimum"]?.doubleValue, x <= min { issue(path, "must be greater than \(Self.format(min)), got \(Self.format(x))") }
        if let max = s["exclusiveMaximum"]?.doubleValue, x >= max { issue(path, "must be less than \(Self.format(max)), got \(Self.format(x))") }
    }

    // MARK: helpers

    private mutating func issue(_ path: String, _ message: String) {
        issues.append(ValidationIssue(path: path, message: message))
    }

    static func child(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    static func format(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x) }

    static func describeValue(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return "the string \(JSONValue.string(s.count > 40 ? String(s.prefix(40)) + "…" : s).serialized())"
        case .number(let n): return "the number \(n)"
        case .bool(let b): return "\(b)"
        default: return value.typeDescription
        }
    }
}

/// `ArgumentValidator.validate(arguments:schema:tool:)` over the reference walk.
enum ReferenceValidator {
    static func validate(arguments: String, schema: JSONValue) -> Result<ValidatedArguments, ArgumentValidationError> {
        let trimmed = arguments.utf8.contains(where: { $0 > 0x20 }) ? arguments : "{}"
        let value: JSONValue
        do { value = try JSONValue.parse(trimmed) } catch {
            return .failure(ArgumentValidationError(tool: "t", issues: [ValidationIssue(path: "", message: "the arguments are not valid JSON (\(error)); send one JSON object")]))
        }
        var walk = ReferenceSchemaWalk()
        let coerced = walk.check(value, schema, path: "")
        guard walk.issues.isEmpty else { return .failure(ArgumentValidationError(tool: "t", issues: walk.issues)) }
        return .success(ValidatedArguments(value: coerced, coercions: walk.coercions))
    }
}
