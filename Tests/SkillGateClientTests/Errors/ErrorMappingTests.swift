import Testing
@testable import SkillGateClient

@Suite struct ErrorMappingTests {
    static func body(_ type: String, _ message: String) -> [UInt8] {
        Array(#"{"error":{"message":"\#(message)","type":"\#(type)","param":null,"code":null}}"#.utf8)
    }

    @Test(arguments: [
        (401, "unauthorized"), (403, "forbidden"), (429, "rateLimited"), (400, "badRequest"), (404, "badRequest"),
        (413, "badRequest"), (500, "upstream"), (502, "upstream"), (503, "upstream"), (504, "upstream"),
    ])
    func statusesMapToTheirKind(_ status: Int, _ kind: String) {
        let error = ErrorMapping.error(status: status, headers: [:], body: Self.body("x", "the message"))
        #expect(error.status == status)
        #expect(error.message == "the message")
        #expect(String(describing: error).contains("the message"))
        let name = Mirror(reflecting: error).children.first?.label
        #expect(name == kind)
    }

    @Test func retryAfterInSecondsOnly() {
        #expect(ErrorMapping.retryAfter("12") == .seconds(12))
        #expect(ErrorMapping.retryAfter(" 0 ") == .seconds(0))
        #expect(ErrorMapping.retryAfter("Wed, 21 Oct 2026 07:28:00 GMT") == nil)
        let error = ErrorMapping.error(status: 429, headers: ["retry-after": "5"], body: [])
        guard case .rateLimited(let after, let message) = error else { Issue.record("got \(error)"); return }
        #expect(after == .seconds(5))
        #expect(message == "HTTP 429 with an empty body")
    }

    @Test(arguments: [
        ("authentication_error", 401), ("permission_error", 403), ("rate_limit_error", 429), ("invalid_request_error", 400),
        ("upstream_error", 502), ("timeout_error", 502),
    ])
    func errorsInsideAStreamMapByType(_ type: String, _ status: Int) {
        #expect(ErrorMapping.error(streamed: .init(type: type, message: "m")).status == status)
    }
}
