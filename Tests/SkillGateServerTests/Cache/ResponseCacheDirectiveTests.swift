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
        // Other spellings of 0 (RFC 9111: delta-seconds are digits, a quoted form is accepted too).
        ([("cache-control", "max-age=00")], .refresh),
        ([("cache-control", "MAX-AGE = 000")], .refresh),
        ([("cache-control", "max-age=\"0\"")], .refresh),
        ([("cache-control", "max-age=60, max-age=0")], .refresh),
        // Not a number: ignored.
        ([("cache-control", "max-age=-0")], .use),
        ([("cache-control", "max-age=0x0, max-age=, max-age")], .use),
        ([("cache-control", "no-store")], .noStore),
        ([("cache-control", "max-age=60, no-transform")], .use),
        ([("cache-control", "no-cache"), ("cache-control", "no-store")], .noStore),
        ([("x-skillgate-cache", "refresh"), ("cache-control", "no-store")], .noStore),
        ([("x-skillgate-cache", "no-store"), ("cache-control", "no-cache")], .noStore),
    ] as [([(String, String)], ResponseCacheDirective)])
    func theStricterDirectiveWins(_ fields: [(String, String)], _ expected: ResponseCacheDirective) throws {
        var headers = HTTPHeaders()
        for (name, value) in fields { headers.add(name, value) }
        #expect(try ResponseCacheDirective.read(headers).directive == expected)
    }

    @Test(arguments: ["yes", "no-cache", "", "hit"])
    func anUnknownValueIsA400NamingTheHeader(_ value: String) {
        #expect {
            try ResponseCacheDirective.read(["x-skillgate-cache": value])
        } throws: { error in
            guard let e = error as? GatewayError else { return false }
            return e.status == 400 && e.param == "x-skillgate-cache" && e.clientMessage.contains("leave the header out")
        }
    }

    @Test func theHeaderGivenTwiceIsA400() {
        var headers = HTTPHeaders()
        headers.add("x-skillgate-cache", "refresh")
        headers.add("x-skillgate-cache", "no-store")
        #expect(throws: GatewayError.self) { try ResponseCacheDirective.read(headers) }
    }

    /// `max-age` above 0 bounds the age of a served answer; the smallest wins; 0 is a refresh, not a bound.
    @Test(arguments: [
        ([], nil),
        ([("cache-control", "max-age=60")], 60),
        ([("cache-control", "max-age=\"0060\", no-transform")], 60),
        ([("cache-control", "max-age=60"), ("cache-control", "max-age=5")], 5),
        ([("cache-control", "max-age=0")], nil),
        ([("cache-control", "max-age=99999999999999999999")], 1 << 31),
        ([("cache-control", "max-age=1.5")], nil),
    ] as [([(String, String)], Int?)])
    func maxAgeBoundsTheServedAnswersAge(_ fields: [(String, String)], _ expected: Int?) throws {
        var headers = HTTPHeaders()
        for (name, value) in fields { headers.add(name, value) }
        #expect(try ResponseCacheDirective.read(headers).maxAgeSeconds == expected)
    }
}
