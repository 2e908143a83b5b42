import SkillGateCore

/// A JSON value at a path of an inbound request, with typed accessors that throw
/// `GatewayError.invalidRequest` naming the field and what was expected.
struct AnthropicInboundField {
    let value: JSONValue?
    let path: String

    init(_ value: JSONValue?, _ path: String) {
        self.value = value
        self.path = path
    }

    func member(_ key: String) -> AnthropicInboundField {
        AnthropicInboundField(value?[key], path.isEmpty ? key : "\(path).\(key)")
    }

    var isPresent: Bool { value.map { !$0.isNull } ?? false }

    func fail(_ expected: String) -> GatewayError {
        let got = value.map { $0.typeDescription } ?? "nothing (the field is missing)"
        return GatewayError.invalidRequest("\(path): expected \(expected), got \(got).", param: path)
    }

    func string() throws -> String {
        guard let s = value?.stringValue else { throw fail("a string") }
        return s
    }

    func optionalString() throws -> String? { isPresent ? try string() : nil }

    func int(minimum: Int) throws -> Int {
        guard let i = value?.intValue else {
            // A number that is not a whole one within 64 bits (2.5, 1e300) is named, not called "a number".
            if case .number(let text)? = value {
                throw GatewayError.invalidRequest("\(path): expected a whole number of at least \(minimum) that fits in 64 bits, got \(InboundField.shown(text)).", param: path)
            }
            throw fail("an integer")
        }
        guard i >= minimum else {
            throw GatewayError.invalidRequest("\(path): expected an integer of at least \(minimum), got \(i).", param: path)
        }
        return i
    }

    func optionalDouble() throws -> Double? {
        guard isPresent else { return nil }
        guard let d = value?.doubleValue else { throw fail("a number") }
        // JSON has no infinity: a number past a double's range (1e400) would reach the provider as null.
        guard d.isFinite else {
            let shown = if case .number(let text)? = value { InboundField.shown(text) } else { "a number" }
            throw GatewayError.invalidRequest(
                "\(path): expected an ordinary number such as 0.7, got \(shown), which is beyond the range of a number (about ±1.8e308).",
                param: path)
        }
        return d
    }

    func optionalBool() throws -> Bool? {
        guard isPresent else { return nil }
        guard let b = value?.boolValue else { throw fail("true or false") }
        return b
    }

    func object() throws -> JSONObject {
        guard let o = value?.objectValue else { throw fail("an object") }
        return o
    }

    func array() throws -> [AnthropicInboundField] {
        guard let a = value?.arrayValue else { throw fail("an array") }
        return a.enumerated().map { AnthropicInboundField($0.element, "\(path)[\($0.offset)]") }
    }

    func optionalArray() throws -> [AnthropicInboundField] { isPresent ? try array() : [] }
}
