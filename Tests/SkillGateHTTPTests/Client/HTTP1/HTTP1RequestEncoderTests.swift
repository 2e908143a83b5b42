import Testing
@testable import SkillGateHTTP

/// The own HTTP/1.1 client writes requests the way libcurl does (decision 0051).
@Suite struct HTTP1RequestEncoderTests {
    static func encoded(_ request: HTTPRequest) throws -> String {
        let target = try #require(HTTP1Target(request, proxy: ProxyEnvironment(proxy: nil, noProxy: nil)))
        return String(decoding: HTTP1RequestEncoder.encode(request, target: target, userAgent: "SkillGate/1.0"), as: UTF8.self)
    }

    @Test func aPostCarriesItsFieldsInOrderAndAContentLength() throws {
        let request = HTTPRequest(url: "http://127.0.0.1:8080/v1/chat/completions",
                                  headers: ["Authorization": "Bearer k", "Content-Type": "application/json"], body: Array("{}".utf8))
        #expect(try Self.encoded(request) == "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: SkillGate/1.0\r\n"
            + "Accept: */*\r\nAuthorization: Bearer k\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
    }

    @Test func aGetWithoutBodyHasNoContentLengthAndAHeadNoBody() throws {
        #expect(try Self.encoded(HTTPRequest(method: "get", url: "http://127.0.0.1/m"))
            == "GET /m HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: SkillGate/1.0\r\nAccept: */*\r\n\r\n")
        #expect(try Self.encoded(HTTPRequest(method: "HEAD", url: "http://127.0.0.1/m", body: [1]))
            == "HEAD /m HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: SkillGate/1.0\r\nAccept: */*\r\n\r\n")
        #expect(try Self.encoded(HTTPRequest(method: "DELETE", url: "http://127.0.0.1/m")).hasSuffix("Content-Length: 0\r\n\r\n"))
    }

    @Test func theRequestsOwnHostAgentAndAcceptReplaceTheDefaultsAndItsFramingIsDropped() throws {
        let request = HTTPRequest(url: "http://127.0.0.1/x", headers: [
            "host": "api.example.com", "User-Agent": "app/2", "Accept": "text/event-stream", "Content-Length": "999",
            "Transfer-Encoding": "chunked", "Expect": "100-continue", "X-Empty": "",
        ], body: Array("abc".utf8))
        #expect(try Self.encoded(request) == "POST /x HTTP/1.1\r\nhost: api.example.com\r\nUser-Agent: app/2\r\nAccept: text/event-stream\r\n"
            + "X-Empty:\r\nContent-Length: 3\r\n\r\nabc")
    }
}
