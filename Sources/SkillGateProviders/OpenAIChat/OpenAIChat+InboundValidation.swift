import SkillGateCore

/// Small readers for the inbound request that throw a 400 naming the field and what it must be. The field's
/// path (`messages[2].content`) is built only for the error: interpolating it for every field of every
/// request was a measurable share of decoding one.
enum InboundField {
    /// `param must be <expected>, but it is <what arrived>` as a `GatewayError` (400).
    static func wrongType(_ param: String, expected: String, got value: JSONValue?) -> GatewayError {
        let got = value.map(\.typeDescription) ?? "missing"
        return GatewayError.invalidRequest("`\(param)` must be \(expected), but it is \(got)", param: param)
    }

    /// The request's `model`, required on every surface but the agent's: missing or not a string, a 400 that says what
    /// to send.
    static func requiredModel(_ value: JSONValue?) throws -> String {
        guard case .string(let s)? = value else {
            throw wrongType("model", expected: "a string naming a model (a provider/model, an alias, a tier such as \"light\", or \"auto\" to let the gateway choose; GET /v1/models lists them)", got: value)
        }
        return s
    }

    /// A required member that must be a string.
    static func requiredString(_ object: JSONValue, _ key: String, at param: @autoclosure () -> String) throws -> String {
        try requiredString(object[key], at: param())
    }

    /// A required member's value (`nil` when the member is missing), which must be a string.
    static func requiredString(_ value: JSONValue?, at param: @autoclosure () -> String) throws -> String {
        guard case .string(let s)? = value else { throw wrongType(param(), expected: "a string", got: value) }
        return s
    }

    /// An optional member that must be a string when present (null counts as absent).
    static func optionalString(_ object: JSONValue, _ key: String, at param: @autoclosure () -> String) throws -> String? {
        try optionalString(object[key], at: param())
    }

    /// An optional member's value (`nil` when the member is missing), which must be a string when present (null counts
    /// as absent).
    static func optionalString(_ value: JSONValue?, at param: @autoclosure () -> String) throws -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let other: throw wrongType(param(), expected: "a string", got: other)
        }
    }

    /// An optional boolean member.
    static func optionalBool(_ object: JSONValue, _ key: String, at param: @autoclosure () -> String) throws -> Bool? {
        try optionalBool(object[key], at: param())
    }

    /// An optional boolean member's value (`nil` when the member is missing).
    static func optionalBool(_ value: JSONValue?, at param: @autoclosure () -> String) throws -> Bool? {
        switch value {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case let other: throw wrongType(param(), expected: "true or false", got: other)
        }
    }

    /// An optional number member.
    static func optionalDouble(_ object: JSONValue, _ key: String, at param: @autoclosure () -> String) throws -> Double? {
        try optionalDouble(object[key], at: param())
    }

    /// An optional number member's value (`nil` when the member is missing).
    static func optionalDouble(_ value: JSONValue?, at param: @autoclosure () -> String) throws -> Double? {
        switch value {
        case nil, .null?: return nil
        case let v?:
            // Read once: `doubleValue` parses the number's text.
            if let number = v.doubleValue {
                // JSON has no infinity: a number past a double's range (1e400) would reach the provider as null.
                guard number.isFinite else { throw outOfRange(param(), v) }
                return number
            }
            throw wrongType(param(), expected: "a number", got: v)
        }
    }

    /// A number past a double's range (`1e400`) as a `GatewayError` (400). JSON has no infinity, so passed on it would
    /// reach the provider as `null`, a different request from the one the client sent.
    static func outOfRange(_ param: String, _ value: JSONValue) -> GatewayError {
        let shownValue = if case .number(let text) = value { shown(text) } else { value.typeDescription }
        return GatewayError.invalidRequest(
            "`\(param)` is \(shownValue), which is beyond the range of a number (about ±1.8e308); send an ordinary number such as 0.7",
            param: param)
    }

    /// A value the client sent, as an error message shows it: its first 40 characters and `…` when it is longer.
    static func shown(_ text: String) -> String {
        text.utf8.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    /// An optional integer member's value (`nil` when the member is missing), of any sign.
    static func optionalInt(_ value: JSONValue?, at param: @autoclosure () -> String) throws -> Int? {
        switch value {
        case nil, .null?: return nil
        case let v? where v.intValue != nil: return v.intValue
        case let other?:
            if case .number(let text) = other {
                throw GatewayError.invalidRequest("`\(param())` must be an integer that fits in 64 bits, but it is \(shown(text))", param: param())
            }
            throw wrongType(param(), expected: "an integer", got: other)
        }
    }

    /// An optional positive integer member.
    static func optionalPositiveInt(_ object: JSONValue, _ key: String, at param: @autoclosure () -> String) throws -> Int? {
        try optionalPositiveInt(object[key], at: param())
    }

    /// An optional positive integer member's value (`nil` when the member is missing).
    static func optionalPositiveInt(_ value: JSONValue?, at param: @autoclosure () -> String) throws -> Int? {
        switch value {
        case nil, .null?: return nil
        case let v?:
            if let i = v.intValue, i >= 1 { return i }
            // A number that is not one (0, -1, 1.5, 1e999): say which, as the Anthropic surface does.
            if case .number(let text) = v {
                throw GatewayError.invalidRequest("`\(param())` must be a positive integer, but it is \(shown(text))", param: param())
            }
            throw wrongType(param(), expected: "a positive integer", got: v)
        }
    }
}
