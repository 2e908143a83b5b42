import SkillGateCore

/// One validation pass over a value and its schema: collects issues and coerced paths, and
/// returns the value with tolerant coercions applied (see `ArgumentValidator`).
///
/// It runs on every tool call of every answer (decision 0071), so the common case, a call that fits, is kept cheap:
/// where the walk is (`at`) is a stack of keys and indexes, rendered as a path only for an issue or a coercion; and an
/// object or array none of whose values was coerced is returned as it came, not rebuilt. A value changes only through a
/// coercion, which is always recorded, so "no new coercion" means "unchanged".
struct SchemaWalk {
    var issues: [ValidationIssue] = []
    var coercions: [String] = []
    /// The keys and indexes from the arguments object to the value being checked.
    private var at: [Step] = []

    private enum Step {
        case key(String)
        case index(Int)
    }

    init() {}

    /// A walk of the alternatives of a value at `at` (`anyOf`/`oneOf`), whose issues and coercions name the same paths.
    private init(at: [Step]) { self.at = at }

    mutating func check(_ value: JSONValue, _ schema: JSONValue) -> JSONValue {
        if case .bool(let allowed) = schema {
            if !allowed { issue("no value is allowed here; leave it out") }
            return value
        }
        guard let s = schema.objectValue else { return value }
        let k = SchemaKeywords(of: s)
        var value = value
        if k.contains(.allOf), case .array(let all)? = s["allOf"] {
            for sub in all { value = check(value, sub) }
        }
        if !k.isDisjoint(with: [.anyOf, .oneOf]), let options = (s["anyOf"] ?? s["oneOf"])?.arrayValue, !options.isEmpty {
            value = alternatives(value, options)
        }
        if value.isNull, k.contains(.nullable), s["nullable"]?.boolValue == true { return value }
        switch Self.declaredTypes(of: s, k) {
        case .none: break
        case .one(let type):
            guard let conformed = conform(value, to: type, schema: s) else { return value }
            value = conformed
        case .several(let types):
            guard let conformed = conform(value, to: types, schema: s) else { return value }
            value = conformed
        }
        if !k.isDisjoint(with: [.const, .enum]) { value = checkEnum(value, s) }
        switch value {
        case .object(let o): value = checkObject(o, s, k)
        case .array(let a): value = checkArray(a, s, k)
        case .string(let text): if !k.isDisjoint(with: [.minLength, .maxLength]) { checkString(text, s) }
        case .number: if !k.isDisjoint(with: SchemaKeywords.numberBounds) { checkNumber(value, s) }
        default: break
        }
        return value
    }

    // MARK: where

    /// The path of the value being checked: `city`, `stops[2].name`; empty for the arguments object.
    private var path: String {
        var out = ""
        for step in at {
            switch step {
            case .key(let key): out = out.isEmpty ? key : out + "." + key
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }

    /// `body` with the walk at `step` below the current value.
    private mutating func below<T>(_ step: Step, _ body: (inout SchemaWalk) -> T) -> T {
        at.append(step)
        defer { at.removeLast() }
        return body(&self)
    }

    // MARK: types

    /// The schema's types; inferred as object/array from `properties`/`items` when `type` is absent.
    static func types(of s: JSONObject) -> [String] {
        switch declaredTypes(of: s, SchemaKeywords(of: s)) {
        case .none: return []
        case .one(let type): return [type]
        case .several(let types): return types
        }
    }

    private enum DeclaredTypes {
        case none
        case one(String)
        case several([String])
    }

    /// `types(of:)` without an array for the common case of one type; `k` are the schema's keywords.
    private static func declaredTypes(of s: JSONObject, _ k: SchemaKeywords) -> DeclaredTypes {
        switch k.contains(.type) ? s["type"] : nil {
        case .string(let t)?: return .one(t)
        case .array(let list)?:
            let types = list.compactMap(\.stringValue)
            if types.isEmpty { return .none }
            return types.count == 1 ? .one(types[0]) : .several(types)
        default:
            if !k.isDisjoint(with: [.properties, .required]) { return .one("object") }
            if k.contains(.items) { return .one("array") }
            return .none
        }
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

    /// `conform(_:to:schema:)` for a schema of one type.
    private mutating func conform(_ value: JSONValue, to type: String, schema: JSONObject) -> JSONValue? {
        if value.isNull, type == "null" { return value }
        if Self.matches(value, type) { return type == "integer" ? writtenAsInteger(value) : value }
        if let coerced = SchemaCoercion.coerce(value, to: type) {
            coercions.append(path)
            return coerced
        }
        issue("expected \(SchemaDescription.describe(.object(schema))), got \(Self.describeValue(value))")
        return nil
    }

    private mutating func conform(_ value: JSONValue, to types: [String], schema: JSONObject) -> JSONValue? {
        if value.isNull, types.contains("null") { return value }
        if let t = types.first(where: { Self.matches(value, $0) }) {
            return t == "integer" && !types.contains("number") ? writtenAsInteger(value) : value
        }
        for t in types {
            if let coerced = SchemaCoercion.coerce(value, to: t) {
                coercions.append(path)
                return coerced
            }
        }
        issue("expected \(SchemaDescription.describe(.object(schema))), got \(Self.describeValue(value))")
        return nil
    }

    /// An integer value as the integer it is: 3.0 for an integer is an integer; write it as one.
    private mutating func writtenAsInteger(_ value: JSONValue) -> JSONValue {
        guard case .number(let literal) = value, let i = value.intValue, literal != String(i) else { return value }
        coercions.append(path)
        return .int(i)
    }

    private mutating func alternatives(_ value: JSONValue, _ options: [JSONValue]) -> JSONValue {
        // A shape the value fits as it is wins over one it fits only after coercion.
        var firstFailure: [ValidationIssue] = []
        var coercedFit: (value: JSONValue, coercions: [String])?
        for option in options {
            var sub = SchemaWalk(at: at)
            let v = sub.check(value, option)
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
        issue("matches none of the allowed shapes (\(shapes)): " + firstFailure.map(\.description).joined(separator: "; "))
        return value
    }

    // MARK: keywords

    private mutating func checkEnum(_ value: JSONValue, _ s: JSONObject) -> JSONValue {
        if let c = s["const"], c != value, !(c.doubleValue != nil && c.doubleValue == value.doubleValue) {
            issue("must be \(c.serialized()), got \(Self.describeValue(value))")
        }
        guard let options = s["enum"]?.arrayValue, !options.contains(value) else { return value }
        if let d = value.doubleValue, options.contains(where: { $0.doubleValue == d }) { return value }
        if let text = value.stringValue?.lowercased(),
           let match = options.first(where: { $0.stringValue?.lowercased() == text }) {
            coercions.append(path)
            return match
        }
        issue("must be one of \(options.map { $0.serialized() }.joined(separator: ", ")), got \(Self.describeValue(value))")
        return value
    }

    private mutating func checkObject(_ o: JSONObject, _ s: JSONObject, _ k: SchemaKeywords) -> JSONValue {
        let properties = k.contains(.properties) ? s["properties"]?.objectValue ?? JSONObject() : JSONObject()
        if k.contains(.required), case .array(let required)? = s["required"] {
            for case .string(let name) in required where o[name] == nil {
                let expected = properties[name].map { SchemaDescription.describe($0) } ?? "a value"
                below(.key(name)) { $0.issue("missing required property (expected \(expected)); add it") }
            }
        }
        let extra = k.contains(.additionalProperties) ? s["additionalProperties"] : nil
        // Rebuilt only from the first member whose value a coercion changed; until then the object is returned as it is.
        var rebuilt: JSONObject?
        for (index, member) in o.members.enumerated() {
            let coercionsBefore = coercions.count
            let checked: JSONValue = below(.key(member.key)) { walk in
                if let propertySchema = properties[member.key] { return walk.check(member.value, propertySchema) }
                guard let extra else { return member.value }
                if extra.boolValue == false {
                    let allowed = properties.keys.joined(separator: ", ")
                    walk.issue("unknown property; the allowed properties are: \(allowed.isEmpty ? "none" : allowed)")
                    return member.value
                }
                return walk.check(member.value, extra)
            }
            if rebuilt == nil, coercions.count != coercionsBefore { rebuilt = JSONObject(Array(o.members[..<index])) }
            rebuilt?.append(member.key, checked)
        }
        return .object(rebuilt ?? o)
    }

    private mutating func checkArray(_ a: [JSONValue], _ s: JSONObject, _ k: SchemaKeywords) -> JSONValue {
        if k.contains(.minItems), let min = s["minItems"]?.intValue, a.count < min { issue("needs at least \(min) item(s), got \(a.count)") }
        if k.contains(.maxItems), let max = s["maxItems"]?.intValue, a.count > max { issue("allows at most \(max) item(s), got \(a.count)") }
        guard k.contains(.items), let items = s["items"], items.objectValue != nil || items.boolValue != nil else { return .array(a) }
        var rebuilt: [JSONValue]?
        for (i, element) in a.enumerated() {
            let coercionsBefore = coercions.count
            let checked = below(.index(i)) { $0.check(element, items) }
            if rebuilt == nil, coercions.count != coercionsBefore { rebuilt = Array(a[..<i]) }
            rebuilt?.append(checked)
        }
        return .array(rebuilt ?? a)
    }

    private mutating func checkString(_ text: String, _ s: JSONObject) {
        if let min = s["minLength"]?.intValue, text.count < min { issue("must be at least \(min) character(s) long") }
        if let max = s["maxLength"]?.intValue, text.count > max { issue("must be at most \(max) character(s) long, got \(text.count)") }
    }

    private mutating func checkNumber(_ value: JSONValue, _ s: JSONObject) {
        let minimum = s["minimum"], maximum = s["maximum"]
        let exclusiveMinimum = s["exclusiveMinimum"], exclusiveMaximum = s["exclusiveMaximum"]
        let x = value.doubleValue ?? 0
        let exclusiveMinFlag = exclusiveMinimum?.boolValue == true, exclusiveMaxFlag = exclusiveMaximum?.boolValue == true
        if let min = minimum?.doubleValue {
            if exclusiveMinFlag ? x <= min : x < min { issue("must be \(exclusiveMinFlag ? "greater than" : "at least") \(Self.format(min)), got \(Self.format(x))") }
        }
        if let max = maximum?.doubleValue {
            if exclusiveMaxFlag ? x >= max : x > max { issue("must be \(exclusiveMaxFlag ? "less than" : "at most") \(Self.format(max)), got \(Self.format(x))") }
        }
        if let min = exclusiveMinimum?.doubleValue, x <= min { issue("must be greater than \(Self.format(min)), got \(Self.format(x))") }
        if let max = exclusiveMaximum?.doubleValue, x >= max { issue("must be less than \(Self.format(max)), got \(Self.format(x))") }
    }

    // MARK: helpers

    /// Records an issue at the current path.
    private mutating func issue(_ message: String) {
        issues.append(ValidationIssue(path: path, message: message))
    }

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
