import SkillGateCore

/// One way a tool call's arguments do not fit the tool's schema.
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    /// Where, as a path from the arguments object (`city`, `stops[2].name`; empty = the whole object).
    public var path: String
    /// What is wrong and what was expected, for a model to read.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Arguments that failed validation, with a message a model can act on.
public struct ArgumentValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var tool: String
    public var issues: [ValidationIssue]

    public init(tool: String, issues: [ValidationIssue]) {
        self.tool = tool
        self.issues = issues
    }

    /// "Invalid arguments for tool "t": city: missing required property (expected a string). Call t again ..."
    public var description: String {
        let list = issues.prefix(8).map(\.description).joined(separator: "; ")
        let more = issues.count > 8 ? "; and \(issues.count - 8) more" : ""
        return "Invalid arguments for tool \"\(tool)\": \(list)\(more). Call \(tool) again with arguments that match its parameters schema."
    }
}

/// Arguments that passed validation.
public struct ValidatedArguments: Sendable, Hashable {
    /// The arguments after tolerant coercion (`"3"` → `3` for an integer), ready to run a skill with.
    public var value: JSONValue
    /// Paths whose values were coerced (empty when the model's arguments were used as they were).
    public var coercions: [String]
}

/// Validates tool-call arguments against the tool's JSON Schema, with the tolerance a model needs.
///
/// Checked: `type` (one or a list; `null`), OpenAPI `nullable`, `required`, `properties`,
/// `additionalProperties` (false or a schema), `enum`, `const`, `items`, `minItems`/`maxItems`,
/// `minLength`/`maxLength`, `minimum`/`maximum` and their exclusive forms, `anyOf`/`oneOf`
/// (the first shape that fits), `allOf`. Not checked (accepted as is): `$ref`, `pattern`,
/// `format`, `if`/`then`, `dependentRequired`.
///
/// Tolerated and coerced, because models do this and the intent is clear: numbers as strings
/// (`"3"` for an integer, `"2.5"` for a number), `3.0` for an integer, `"true"`/`"false"` for a
/// boolean, a number or boolean where a string is expected, an object or array sent as a JSON
/// string, a single item where an array is expected, an enum value in another letter case,
/// and empty arguments text (meaning `{}`).
public enum ArgumentValidator {
    /// Validates the JSON text of a call's arguments for tool `tool`.
    public static func validate(arguments: String, schema: JSONValue, tool: String) throws(ArgumentValidationError) -> ValidatedArguments {
        let trimmed = arguments.utf8.contains(where: { $0 > 0x20 }) ? arguments : "{}"
        let value: JSONValue
        do { value = try JSONValue.parse(trimmed) } catch {
            throw ArgumentValidationError(tool: tool, issues: [ValidationIssue(path: "", message: "the arguments are not valid JSON (\(error)); send one JSON object")])
        }
        return try validate(value, schema: schema, tool: tool)
    }

    /// Validates a parsed arguments value.
    public static func validate(_ value: JSONValue, schema: JSONValue, tool: String) throws(ArgumentValidationError) -> ValidatedArguments {
        var walk = SchemaWalk()
        let coerced = walk.check(value, schema)
        guard walk.issues.isEmpty else { throw ArgumentValidationError(tool: tool, issues: walk.issues) }
        return ValidatedArguments(value: coerced, coercions: walk.coercions)
    }
}
