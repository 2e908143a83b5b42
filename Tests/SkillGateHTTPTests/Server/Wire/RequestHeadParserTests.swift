@testable import SkillGateHTTP
import Testing

/// The request head parser (decision 0058): what it takes and what it refuses with which status.
@Suite struct RequestHeadParserTests {
    private static func parse(_ text: String) -> Result<ParsedRequestHead, RequestHeadParser.Refusal> {
        Array(text.utf8).withUnsafeBytes { RequestHeadParser.parse($0) }
    }

    @Test func aHeadGivesMethodPathQueryVersionAndFieldsInOrder() throws {
        let head = try Self.parse("POST /v1/chat/completions?stream=1&x HTTP/1.1\r\nHost: gw\r\nX-A:  spaced value \t\r\nx-a: second\r\n").get()
        #expect(head.method == "POST")
        #expect(head.path == "/v1/chat/completions")
        #expect(head.query == "stream=1&x")
        #expect(head.minorVersion == 1)
        #expect(head.keepAlive)
        #expect(head.headers.fields.map(\.name) == ["Host", "X-A", "x-a"])
        #expect(head.headers.values("x-a") == ["spaced value", "second"])
    }

    @Test(arguments: [
        ("/", "/", nil), ("/p?", "/p", ""), ("/p#frag", "/p", nil), ("/p?q=1#frag", "/p", "q=1"),
        ("http://host:8080/v1/models?a", "/v1/models", "a"), ("http://host", "/", nil), ("https://h?x", "/", "x"), ("*", "*", nil),
    ] as [(String, String, String?)])
    func targetsGiveTheirPathAndQuery(target: String, path: String, query: String?) throws {
        let head = try Self.parse("OPTIONS \(target) HTTP/1.1\r\n").get()
        #expect(head.path == path)
        #expect(head.query == query)
    }

    @Test(arguments: [
        ("HTTP/1.1", "", true), ("HTTP/1.1", "Connection: close", false), ("HTTP/1.1", "Connection: TE, Close", false),
        ("HTTP/1.0", "", false), ("HTTP/1.0", "Connection: keep-alive", true), ("HTTP/1.0", "Connection: Keep-Alive, close", false),
    ])
    func persistenceFollowsTheVersionAndConnectionField(version: String, field: String, keepAlive: Bool) throws {
        let head = try Self.parse("GET / \(version)\r\n\(field.isEmpty ? "" : field + "\r\n")").get()
        #expect(head.keepAlive == keepAlive)
    }

    @Test func bareLineFeedsEndLines() throws {
        let head = try Self.parse("GET / HTTP/1.1\nX-Long: one two\nHost: h\n").get()
        #expect(head.headers["X-Long"] == "one two")
        #expect(head.headers["Host"] == "h")
    }

    /// Obsolete line folding is refused (decision 0170): a continuation line that a proxy in front reads as a field of
    /// its own (a hidden `Content-Length` or `Transfer-Encoding`) would frame the request differently there.
    @Test(arguments: [
        "GET / HTTP/1.1\nX-Long: one\n\t two\nHost: h\n",
        "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding:\r\n chunked\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n Content-Length: 5\r\nContent-Length: 60\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive,\r\n close\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nExpect:\r\n 100-continue\r\n",
    ])
    func foldedLinesAreRefused(text: String) {
        guard case .failure(let refusal) = Self.parse(text) else {
            Issue.record("\(text.debugDescription) was taken")
            return
        }
        #expect(refusal.status == 400)
        #expect(refusal.message.contains("obsolete line folding") && refusal.message.contains("on one line"), "\(refusal.message)")
    }

    @Test func connectionAndExpectValuesAreActedOn() throws {
        let head = try Self.parse("GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, close\r\nExpect: 100-continue\r\n").get()
        #expect(!head.keepAlive)
        #expect(head.expect == "100-continue")
        let old = try Self.parse("GET / HTTP/1.0\r\nHost: h\r\nConnection:\tkeep-alive\r\n").get()
        #expect(old.keepAlive)
    }

    /// HTTP/1.2 to HTTP/1.9 are served as HTTP/1.1 (RFC 9110 §6.2); HTTP/2.0 and HTTP/3.0 get 505 saying to use 1.1.
    @Test func laterMinorVersionsAreHTTP11AndMajorVersions2And3Get505() throws {
        let later = try Self.parse("GET / HTTP/1.7\r\nHost: h\r\n").get()
        #expect(later.minorVersion == 1 && later.keepAlive)
        for version in ["HTTP/2.0", "HTTP/3.0"] {
            guard case .failure(let refusal) = Self.parse("GET / \(version)\r\nHost: h\r\n") else { Issue.record("\(version) was taken"); continue }
            #expect(refusal.status == 505)
            #expect(refusal.message.contains("HTTP/1.1"))
        }
    }

    @Test(arguments: [
        ("GARBAGE", 400), ("GET  HTTP/1.1", 400), ("GET /a b HTTP/1.1", 400), ("GET / HTTP/9.9", 400), ("GET / HTTP/2", 400),
        ("GET / http/1.1", 400), ("G(T / HTTP/1.1", 400), ("GET relative HTTP/1.1", 400), ("GET /\u{7F} HTTP/1.1", 400),
        ("BREW / HTTP/1.1", 501), ("TRACE / HTTP/1.1", 501), ("CONNECT host:443 HTTP/1.1", 400),
        ("GET / HTTP/1.1\r\nNoColon", 400), ("GET / HTTP/1.1\r\nHost : x", 400), ("GET / HTTP/1.1\r\n: empty", 400),
        ("GET / HTTP/1.1\r\n folded-first", 400), ("GET / HTTP/1.1\r\nX: a\u{01}b", 400), ("GET / HTTP/1.1\r\nX-\u{7F}: v", 400),
        ("GET / HTTP/1.1\r\nX: a\rb", 400),
    ])
    func malformedHeadsAreRefused(text: String, status: Int) {
        guard case .failure(let refusal) = Self.parse(text) else {
            Issue.record("\(text.debugDescription) was taken")
            return
        }
        #expect(refusal.status == status, "\(text.debugDescription): \(refusal.message)")
        #expect(!refusal.message.isEmpty)
    }

    @Test func controlBytesInFieldsSayWhatToFix() {
        guard case .failure(let refusal) = Self.parse("GET / HTTP/1.1\r\nX-Bad: \u{02}\r\n") else {
            Issue.record("taken")
            return
        }
        #expect(refusal.message == RequestHeadParser.controlCharacterMessage)
    }

    @Test func blankLinesBeforeARequestLineAreSkipped() {
        Array("\r\n\r\nGET".utf8).withUnsafeBytes { #expect(RequestHeadParser.blankLinePrefix($0, from: 0) == 4) }
    }
}
