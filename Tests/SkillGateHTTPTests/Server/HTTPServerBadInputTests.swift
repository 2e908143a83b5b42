import Foundation
import SkillGateHTTP
import Testing

@Suite("HTTPServer bad input")
struct HTTPServerBadInputTests {
    struct BadInput: Sendable, CustomStringConvertible {
        let name: String
        let bytes: String
        let status: Int
        var description: String { name }
    }

    static let inputs: [BadInput] = [
        BadInput(name: "malformed request line", bytes: "GARBAGE\r\n\r\n", status: 400),
        BadInput(name: "empty request target", bytes: "GET  HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        BadInput(name: "unknown HTTP version", bytes: "GET / HTTP/9.9\r\nHost: x\r\n\r\n", status: 400),
        BadInput(name: "header without colon", bytes: "GET / HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n", status: 400),
        BadInput(name: "raw newline inside a header", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\nb\r\n\r\n", status: 400),
        BadInput(name: "control character in a header value", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-Bad: a\u{01}b\r\n\r\n", status: 400),
        BadInput(name: "DEL in a header name", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-\u{7F}: v\r\n\r\n", status: 400),
        BadInput(name: "a folded header line", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", status: 400),
        BadInput(name: "Transfer-Encoding folded onto a continuation line",
                 bytes: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", status: 400),
        BadInput(name: "invalid chunk size", bytes: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n", status: 400),
        BadInput(name: "body over the limit", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n", status: 413),
        BadInput(name: "chunked body over the limit",
                 bytes: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n" + String(repeating: "x", count: 2048) + "\r\n",
                 status: 413),
        BadInput(name: "chunk size followed by more than an extension",
                 bytes: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2a 99\r\n", status: 400),
        BadInput(name: "oversized trailer section",
                 bytes: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
                     + String(repeating: "T: v\r\n", count: 3000) + "\r\n",
                 status: 431),
        BadInput(name: "non-numeric Content-Length", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", status: 400),
        BadInput(name: "negative Content-Length", bytes: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", status: 400),
        BadInput(name: "unknown method", bytes: "BREW / HTTP/1.1\r\nHost: x\r\n\r\n", status: 501),
        BadInput(name: "HTTP/1.1 without Host", bytes: "GET / HTTP/1.1\r\nX-A: b\r\n\r\n", status: 400),
        BadInput(name: "two Host fields", bytes: "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", status: 400),
        BadInput(name: "two Host fields on HTTP/1.0", bytes: "GET / HTTP/1.0\r\nHost: x\r\nhost: x\r\n\r\n", status: 400),
        BadInput(name: "empty Host", bytes: "GET / HTTP/1.1\r\nHost: \r\n\r\n", status: 400),
        BadInput(name: "Host with a path", bytes: "GET / HTTP/1.1\r\nHost: x/admin\r\n\r\n", status: 400),
        BadInput(name: "oversized header block", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 70_000))\r\n\r\n", status: 431),
        BadInput(name: "oversized header block not ended yet", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 70_000))", status: 431),
        BadInput(name: "HTTP/2.0 request line", bytes: "GET / HTTP/2.0\r\nHost: x\r\n\r\n", status: 505),
        BadInput(name: "HTTP/2 connection preface", bytes: "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", status: 505),
        BadInput(name: "HTTP/3.0 request line", bytes: "GET / HTTP/3.0\r\nHost: x\r\n\r\n", status: 505),
    ]

    static let ok: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { _, responder in
        responder.respond(status: 200, headers: [:], body: Array("fine".utf8))
    }

    @Test(arguments: inputs)
    func badInputGetsErrorAndServerKeepsServing(_ input: BadInput) async throws {
        try await withTestServer({ $0.maxBodyBytes = 1024; $0.loops = 1 }, handler: Self.ok) { _, port in
            let (response, closed) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 3)
                client.send(input.bytes)
                let response = client.readResponse()
                return (response, client.readUntilClosed().closed)
            }
            #expect(response?.status == input.status)
            #expect(response?.header("Content-Type") == "application/json")
            #expect(response?.bodyText.hasPrefix("{\"error\":{\"message\":") == true, "body: \(response?.bodyText ?? "none")")
            #expect(response?.header("Content-Length") == "\(response?.body.count ?? -1)")
            #expect(response?.header("Connection")?.lowercased() == "close")
            #expect(closed, "the server kept a connection with a broken request open")
            if input.name.hasPrefix("oversized header") {
                #expect(response?.bodyText.contains("limit of 65536 bytes") == true, "\(response?.bodyText ?? "none")")
            }
            if input.name.hasPrefix("oversized trailer") { #expect(response?.bodyText.contains("trailer section") == true) }
            if input.status == 505 { #expect(response?.bodyText.contains("HTTP/1.1") == true, "\(response?.bodyText ?? "none")") }
            let next = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/after"))
                return client.readResponse()
            }
            #expect(next?.bodyText == "fine")
        }
    }

    @Test func errorsTheServerRendersItselfUseTheErrorBodyRenderer() async throws {
        try await withTestServer({ config in
            config.errorBody = { status, message in ("application/x-test", Array("E\(status):\(message.prefix(8))".utf8)) }
        }, handler: Self.ok) { _, port in
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("GET / HTTP/1.1\r\nHost: x\r\nX-Bad: \u{02}\r\n\r\n")
                return client.readResponse()
            }
            #expect(response?.status == 400)
            #expect(response?.header("Content-Type") == "application/x-test")
            #expect(response?.bodyText == "E400:A reques")
            let tooLarge = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n")
                return client.readResponse()
            }
            #expect(tooLarge?.status == 413)
            #expect(tooLarge?.header("Content-Type") == "application/x-test")
            #expect(tooLarge?.bodyText == "E413:The requ")
        }
    }

    @Test func truncatedBodyIsDroppedAfterTheReadTimeout() async throws {
        try await withTestServer({ $0.bodyReadTimeout = .milliseconds(300) }, handler: Self.ok) { _, port in
            let (closed, elapsed) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 5)
                let start = ContinuousClock.now
                client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly-ten!!")
                return (client.readUntilClosed().closed, ContinuousClock.now - start)
            }
            #expect(closed)
            #expect(elapsed < .seconds(3), "a client that promised more body held the connection for \(elapsed)")
        }
    }

    @Test func slowHeaderClientIsDropped() async throws {
        try await withTestServer({ $0.headerTimeout = .milliseconds(300) }, handler: Self.ok) { _, port in
            let (closed, elapsed) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port, receiveTimeout: 5)
                let start = ContinuousClock.now
                client.send("GET / HTTP/1.1\r\nHost: x\r\n")
                return (client.readUntilClosed().closed, ContinuousClock.now - start)
            }
            #expect(closed)
            #expect(elapsed < .seconds(3))
        }
    }
}
