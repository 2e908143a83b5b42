import Testing
import SkillGateCore

/// A test argument named for the test report: a request or an answer, and what it shows. The byte-pinning suites of
/// the wire formats are parameterised over these.
struct NamedCase<Value: Sendable>: Sendable, CustomTestStringConvertible {
    let name: String
    let value: Value
    var testDescription: String { name }
}

extension NamedCase where Value == ChatRequest {
    init(name: String, request: ChatRequest) { self.init(name: name, value: request) }
    var request: ChatRequest { value }
}

extension NamedCase where Value == ChatResponse {
    init(name: String, response: ChatResponse) { self.init(name: name, value: response) }
    var response: ChatResponse { value }
}
