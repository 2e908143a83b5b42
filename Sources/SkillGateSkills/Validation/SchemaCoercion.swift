import SkillGateCore

/// The tolerant conversions `ArgumentValidator` applies when a value has the wrong JSON type but
/// an unambiguous intent.
enum SchemaCoercion {
    /// `value` converted to JSON-Schema type `type`, or `nil` when the intent is not clear.
    static func coerce(_ value: JSONValue, to type: String) -> JSONValue? {
        switch (type, value) {
        case ("integer", .string(let s)):
            let t = trim(s)
            if let i = Int(t) { return .int(i) }
            if let d = Double(t), d.isFinite, d == d.rounded(), abs(d) < 9e15 { return .int(Int(d)) }
            return nil
        case ("number", .string(let s)):
            guard case .number(let literal)? = try? JSONValue.parse(trim(s)) else { return nil }
            return .number(literal)
        case ("boolean", .string(let s)):
            switch trim(s).lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: return nil
            }
        case ("string", .number(let literal)): return .string(literal)
        case ("string", .bool(let b)): return .string(b ? "true" : "false")
        case ("object", .string(let s)):
            guard case .object(let o)? = try? JSONValue.parse(trim(s)) else { return nil }
            return .object(o)
        case ("array", .string(let s)):
            if case .array(let a)? = try? JSONValue.parse(trim(s)) { return .array(a) }
            return .array([value])
        case ("array", .null):
            return nil
        case ("array", _):
            return .array([value])  // a single item where a list is expected
        default:
            return nil
        }
    }

    /// `s` without whitespace characters at either end. Most values start and end with a printable ASCII byte, and
    /// then no character at either end can be whitespace (a character's first scalar decides, and one ending in such a
    /// byte starts with it or with a prepended mark, never with whitespace), so those are returned without walking
    /// characters (decision 0071).
    static func trim(_ s: String) -> String {
        if let first = s.utf8.first, let last = s.utf8.last, (0x21..<0x80).contains(first), (0x21..<0x80).contains(last) { return s }
        var scalars = Substring(s)
        while let f = scalars.first, f.isWhitespace { scalars.removeFirst() }
        while let l = scalars.last, l.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

/// Short descriptions of schemas for error messages a model reads ("a string — City name").
enum SchemaDescription {
    static func describe(_ schema: JSONValue) -> String {
        guard let s = schema.objectValue else { return "any value" }
        var text: String
        if let options = s["enum"]?.arrayValue, !options.isEmpty {
            text = "one of " + options.prefix(12).map { $0.serialized() }.joined(separator: ", ")
        } else if let c = s["const"] {
            text = c.serialized()
        } else {
            let types = SchemaWalk.types(of: s)
            text = types.isEmpty ? "any value" : types.map(article).joined(separator: " or ")
            if types == ["array"], let items = s["items"], items.objectValue != nil {
                let inner = describe(items)
                text += " of " + (inner.hasPrefix("an ") ? String(inner.dropFirst(3)) : inner.hasPrefix("a ") ? String(inner.dropFirst(2)) : inner)
            }
        }
        if let d = s["description"]?.stringValue, !d.isEmpty {
            text += " — " + (d.count > 80 ? String(d.prefix(80)) + "…" : d)
        }
        return text
    }

    private static func article(_ type: String) -> String {
        switch type {
        case "integer", "object", "array": return "an \(type)"
        case "null": return "null"
        default: return "a \(type)"
        }
    }
}
