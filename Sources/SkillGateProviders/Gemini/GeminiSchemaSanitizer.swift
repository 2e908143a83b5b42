import SkillGateCore

/// Rewrites a JSON Schema into the OpenAPI 3.0 subset Gemini's `Schema` accepts.
///
/// Gemini rejects unknown keywords with a 400, so this works by allow-list: only `type`, `format`,
/// `title`, `description`, `nullable`, `enum`, `items`, `properties`, `required`, `anyOf`,
/// `propertyOrdering`, `default`, `example`, `minimum`/`maximum`, `minItems`/`maxItems`,
/// `minLength`/`maxLength`, `minProperties`/`maxProperties` and `pattern` survive, recursively.
/// Conversions instead of drops where the meaning can be kept:
/// - `$ref` to `#/$defs/X` or `#/definitions/X` is inlined (recursive references become `{"type":"object"}`), until
///   the sanitised schema has `maxExpandedNodes` nodes: definitions that refer to each other twice or more would
///   otherwise grow the schema exponentially with their depth (a 2 KB tool became a 64 MB request; decision 0112), so
///   past the budget a `$ref` becomes `{"type":"object"}` with a description saying why;
/// - `type: ["string","null"]` becomes `type: "string", nullable: true` (several types become `anyOf`);
/// - `anyOf`/`oneOf` members `{"type":"null"}` become `nullable: true`; `oneOf` becomes `anyOf`;
///   `allOf` members are merged into the schema;
/// - `const: v` becomes `enum: ["v"]`; enum values become strings (Gemini enums are strings);
/// - string `format`s other than `enum` and `date-time` (which Gemini rejects) move into the description;
/// - `required` keeps only names that are in `properties`; empty `properties`/`required` are dropped.
public enum GeminiSchemaSanitizer {
    static let keptKeys: Set<String> = [
        "type", "format", "title", "description", "nullable", "enum", "items", "properties", "required",
        "anyOf", "propertyOrdering", "default", "example", "minimum", "maximum", "minItems", "maxItems",
        "minLength", "maxLength", "minProperties", "maxProperties", "pattern",
    ]
    static let maxDepth = 32
    /// The most schema nodes a sanitised schema gets by inlining `$ref`s: far above real tools (tens to a few hundred
    /// nodes), far below a request that hurts (each node is a few dozen bytes).
    static let maxExpandedNodes = 10_000

    /// The sanitised form of `schema`; `$ref`s resolve against the root's `$defs`/`definitions`.
    public static func sanitize(_ schema: JSONValue) -> JSONValue {
        var defs = JSONObject()
        for key in ["definitions", "$defs"] {
            for m in schema[key]?.objectValue ?? JSONObject() { defs[m.key] = m.value }
        }
        var nodesLeft = maxExpandedNodes
        return clean(schema, defs: defs, depth: 0, refs: [], nodesLeft: &nodesLeft)
    }

    private static func clean(_ value: JSONValue, defs: JSONObject, depth: Int, refs: [String], nodesLeft: inout Int) -> JSONValue {
        guard var object = value.objectValue else { return value.boolValue == nil ? value : ["type": "object"] }
        guard depth < maxDepth else { return ["type": "object"] }
        nodesLeft -= 1
        if isCleanLeaf(object) { return value }  // most nodes: reuse as is, no allocation
        var refs = refs
        if let ref = object["$ref"]?.stringValue {
            let name = ref.split(separator: "/").last.map(String.init) ?? ref
            object["$ref"] = nil
            guard !refs.contains(name), let target = defs[name]?.objectValue, nodesLeft > 0 else {
                var fallback: JSONObject = ["type": "object"]
                if nodesLeft <= 0, defs[name] != nil {
                    let note = "(\(name): not expanded, the schema's references expand past \(maxExpandedNodes) nodes)"
                    fallback.append("description", .string(object["description"]?.stringValue.map { "\($0) \(note)" } ?? note))
                } else {
                    fallback.append("description", ifPresent: object["description"])
                }
                return .object(fallback)
            }
            refs.append(name)
            for m in target where object[m.key] == nil { object[m.key] = m.value }
        }
        if let all = object["allOf"]?.arrayValue {
            object["allOf"] = nil
            for part in all { merge(part.objectValue ?? JSONObject(), into: &object) }
        }
        if let one = object["oneOf"], object["anyOf"] == nil { object["anyOf"] = one }

        var out = JSONObject()
        var nullable = object["nullable"]?.boolValue ?? false
        for m in object where keptKeys.contains(m.key) {
            switch m.key {
            case "type":
                if let types = m.value.arrayValue {
                    let named = types.compactMap(\.stringValue).filter { $0 != "null" }
                    if named.count < types.count { nullable = true }
                    if named.count == 1 { out.append("type", .string(named[0])) }
                    else if named.count > 1 { out.append("anyOf", .array(named.map { ["type": .string($0)] })) }
                } else if m.value.stringValue == "null" {
                    nullable = true
                } else {
                    out.append("type", m.value)
                }
            case "properties":
                guard let props = m.value.objectValue, !props.isEmpty else { continue }
                var cleaned = JSONObject()
                for p in props { cleaned.append(p.key, clean(p.value, defs: defs, depth: depth + 1, refs: refs, nodesLeft: &nodesLeft)) }
                out.append("properties", .object(cleaned))
            case "items":
                let single = m.value.arrayValue?.first ?? m.value
                out.append("items", clean(single, defs: defs, depth: depth + 1, refs: refs, nodesLeft: &nodesLeft))
            case "anyOf":
                var members: [JSONValue] = []
                for member in m.value.arrayValue ?? [] {
                    if member["type"]?.stringValue == "null" { nullable = true; continue }
                    members.append(clean(member, defs: defs, depth: depth + 1, refs: refs, nodesLeft: &nodesLeft))
                }
                if members.count == 1, let only = members[0].objectValue {
                    for x in only where out[x.key] == nil && object[x.key] == nil { out.append(x.key, x.value) }
                } else if !members.isEmpty {
                    out.append("anyOf", .array(members))
                }
            case "enum":
                let values = m.value.arrayValue ?? []
                if values.contains(where: \.isNull) { nullable = true }
                out.append("enum", .array(values.filter { !$0.isNull }.map { .string(enumText($0)) }))
            case "nullable":
                continue
            default:
                out.append(m.key, m.value)
            }
        }
        if let constant = object["const"], out["enum"] == nil {
            out.append("enum", [.string(enumText(constant))])
        }
        if out["enum"] != nil, out["type"] == nil { out.append("type", "string") }
        fixFormat(&out)
        fixRequired(&out)
        if nullable { out["nullable"] = true }
        return .object(out)
    }

    /// Whether a schema node without children already is in Gemini's subset: only plain keys,
    /// one non-null `type` (not `object`, whose empty properties would need handling), string enum
    /// values, and a format Gemini accepts for the type.
    private static func isCleanLeaf(_ object: JSONObject) -> Bool {
        var type: String?
        var format: String?
        for m in object {
            switch m.key {
            case "type":
                guard let t = m.value.stringValue, t != "null", t != "object" else { return false }
                type = t
            case "format":
                format = m.value.stringValue
            case "enum":
                guard let values = m.value.arrayValue, values.allSatisfy({ $0.stringValue != nil }) else { return false }
            case "description", "title", "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength",
                 "minProperties", "maxProperties", "pattern", "default", "example":
                continue
            default:
                return false
            }
        }
        guard let type else { return false }
        guard let format else { return true }
        switch type {
        case "string": return format == "enum" || format == "date-time"
        case "number": return format == "float" || format == "double"
        case "integer": return format == "int32" || format == "int64"
        default: return false
        }
    }

    /// Merges an `allOf` member: its properties and required names are unioned, other keys fill gaps.
    private static func merge(_ part: JSONObject, into object: inout JSONObject) {
        for m in part {
            switch m.key {
            case "properties":
                var props = object["properties"]?.objectValue ?? JSONObject()
                for p in m.value.objectValue ?? JSONObject() where props[p.key] == nil { props.append(p.key, p.value) }
                object["properties"] = .object(props)
            case "required":
                let existing = object["required"]?.arrayValue ?? []
                object["required"] = .array(existing + (m.value.arrayValue ?? []).filter { !existing.contains($0) })
            default:
                if object[m.key] == nil { object[m.key] = m.value }
            }
        }
    }

    private static func enumText(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        default: return value.serialized()
        }
    }

    /// Gemini accepts only `enum` and `date-time` as string formats (and float/double, int32/int64
    /// for numbers); other formats move into the description so the model still sees them.
    private static func fixFormat(_ out: inout JSONObject) {
        guard let format = out["format"]?.stringValue else { return }
        let allowed: Set<String>
        switch out["type"]?.stringValue?.lowercased() {
        case "string": allowed = ["enum", "date-time"]
        case "number": allowed = ["float", "double"]
        case "integer": allowed = ["int32", "int64"]
        default: allowed = []
        }
        guard !allowed.contains(format) else { return }
        out["format"] = nil
        if out["type"]?.stringValue == "string" {
            let note = "(format: \(format))"
            let description = out["description"]?.stringValue.map { "\($0) \(note)" } ?? note
            out["description"] = .string(description)
        }
    }

    private static func fixRequired(_ out: inout JSONObject) {
        guard let required = out["required"]?.arrayValue else { return }
        let properties = out["properties"]?.objectValue ?? JSONObject()
        let kept = required.filter { $0.stringValue.map { properties[$0] != nil } ?? false }
        if kept.count == required.count, !kept.isEmpty { return }
        out["required"] = kept.isEmpty ? nil : .array(kept)
    }
}
