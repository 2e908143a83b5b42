import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// What a request asks of the response cache (decision 0140).
@Suite struct ResponseCacheDirectiveTests {
    @Test(arguments: [
        ([], ResponseCacheDirective.use),
        ([("x-skillgate-cache", "no-store")], .noStore),
        ([("x-skillgate-cache", " Refresh ")], .refresh),
        ([("cache-control", "no-cache")], .refresh),
        ([("cache-control", "max-age=0")], .refresh),
        ([("cache-control", "no-store")], .noStore),
        ([("cache-control", "max-age=60, no-transform")], .use),
        ([("cache-control", "no-cache"), ("cache-control", "no-store")], .noStore),
        ([("x-skillgate-cache", "refresh"), ("cache-control", "no-store")], .noStore),
        ([("x-skillgate-cache", "no-store"), ("cache-control", "no-cache")], .noStore),
    ] as [([(String, String)], ResponseCacheDirective)])
    func theStricterDirectiveWins(_ fields: [(String, String)], _ expected: ResponseCacheDirective) throws {
        var headers = HTTPHeaders()
        for (name, value) in fields { headers.add(name, value) }
        #expect(try ResponseCacheDirective.from(headers) == expected)
    }

    @Test(arguments: ["yes", "no-cache", "", "hit"])
    func anUnknownValueIsA400NamingTheHeader(_ value: String) {
        #expect {
            try ResponseCacheDirective.from(["x-skillgate-cache": value])
        } throws: { error in
            guard let e = error as? GatewayError else { return false }
            return e.status == 400 && e.param == "x-skillgate-cache" && e.clientMessage.contains("leave the header out")
        }
    }

    @Test func theHeaderGivenTwiceIsA400() {
        var headers = HTTPHeaders()
        headers.add("x-skillgate-cache", "refresh")
        headers.add("x-skillgate-cache", "no-store")
        #expect(throws: GatewayError.self) { try ResponseCacheDirective.from(headers) }
    }
}
