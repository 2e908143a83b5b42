import Testing
@testable import SkillGateHTTP

/// Header names compare ASCII case-insensitively, and only letters fold, for small (inline) and
/// heap-allocated strings alike.
@Suite struct HTTPHeadersTests {
    static let pairs: [(String, String, Bool)] = [
        ("Content-Type", "content-type", true),
        ("X-API-KEY", "x-api-key", true),
        ("authorization", "Authorization", true),
        ("x-skillgate-a-very-long-header-name-on-the-heap", "X-SkillGate-A-Very-Long-Header-Name-On-The-Heap", true),
        ("x-skillgate-a-very-long-header-name-on-the-heap", "x-skillgate-a-very-long-header-name-on-the-hea_", false),
        ("content-type", "content-typ", false),
        ("[", "{", false),          // 0x5B and 0x7B differ only in the case bit, but are not letters
        ("@", "`", false),
        ("a-b", "a_b", false),
        ("", "", true),
    ]

    @Test(arguments: pairs)
    func namesCompareCaseInsensitively(a: String, b: String, same: Bool) {
        #expect(HTTPHeaders.sameName(a, b) == same)
        #expect(HTTPHeaders.sameName(b, a) == same)
    }

    @Test func lookupFindsTheFirstFieldOfAnyCase() {
        var headers: HTTPHeaders = ["Content-Type": "application/json", "X-Request-Id": "a", "x-request-id": "b"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["X-REQUEST-ID"] == "a")
        #expect(headers.values("x-request-id") == ["a", "b"])
        headers.remove("X-Request-ID")
        #expect(headers["x-request-id"] == nil)
    }
}
