import SkillGateCore

/// Which of the JSON Schema keywords `SchemaWalk` reads a schema object has, found in one pass over its members, so
/// that a keyword it lacks (most of them, for a property's schema) costs no lookup (decision 0071). A keyword in the set
/// is then read with the object's own lookup, which finds its first occurrence as before.
struct SchemaKeywords: OptionSet {
    let rawValue: UInt32

    static let allOf = SchemaKeywords(rawValue: 1 << 0)
    static let anyOf = SchemaKeywords(rawValue: 1 << 1)
    static let oneOf = SchemaKeywords(rawValue: 1 << 2)
    static let nullable = SchemaKeywords(rawValue: 1 << 3)
    static let type = SchemaKeywords(rawValue: 1 << 4)
    static let properties = SchemaKeywords(rawValue: 1 << 5)
    static let required = SchemaKeywords(rawValue: 1 << 6)
    static let items = SchemaKeywords(rawValue: 1 << 7)
    static let const = SchemaKeywords(rawValue: 1 << 8)
    static let `enum` = SchemaKeywords(rawValue: 1 << 9)
    static let minLength = SchemaKeywords(rawValue: 1 << 10)
    static let maxLength = SchemaKeywords(rawValue: 1 << 11)
    static let minimum = SchemaKeywords(rawValue: 1 << 12)
    static let maximum = SchemaKeywords(rawValue: 1 << 13)
    static let exclusiveMinimum = SchemaKeywords(rawValue: 1 << 14)
    static let exclusiveMaximum = SchemaKeywords(rawValue: 1 << 15)
    static let additionalProperties = SchemaKeywords(rawValue: 1 << 16)
    static let minItems = SchemaKeywords(rawValue: 1 << 17)
    static let maxItems = SchemaKeywords(rawValue: 1 << 18)

    /// The bounds of a number.
    static let numberBounds: SchemaKeywords = [.minimum, .maximum, .exclusiveMinimum, .exclusiveMaximum]

    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The keywords among `schema`'s member names.
    init(of schema: JSONObject) {
        var found: SchemaKeywords = []
        for member in schema.members { found.formUnion(Self.keyword(member.key)) }
        self = found
    }

    /// The keyword `name` is, or none: told apart by length first, so a name of another length (`description`,
    /// `title`) costs one comparison of lengths.
    static func keyword(_ name: String) -> SchemaKeywords {
        switch name.utf8.count {
        case 4:
            if name == "type" { return .type }
            if name == "enum" { return .enum }
        case 5:
            if name == "items" { return .items }
            if name == "allOf" { return .allOf }
            if name == "anyOf" { return .anyOf }
            if name == "oneOf" { return .oneOf }
            if name == "const" { return .const }
        case 7:
            if name == "minimum" { return .minimum }
            if name == "maximum" { return .maximum }
        case 8:
            if name == "required" { return .required }
            if name == "nullable" { return .nullable }
            if name == "minItems" { return .minItems }
            if name == "maxItems" { return .maxItems }
        case 9:
            if name == "minLength" { return .minLength }
            if name == "maxLength" { return .maxLength }
        case 10:
            if name == "properties" { return .properties }
        case 16:
            if name == "exclusiveMinimum" { return .exclusiveMinimum }
            if name == "exclusiveMaximum" { return .exclusiveMaximum }
        case 20:
            if name == "additionalProperties" { return .additionalProperties }
        default:
            break
        }
        return []
    }
}
