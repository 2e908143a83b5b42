import Foundation
import SkillGateHTTP
import Testing
import SkillGateTestSupport

@Suite("HTTPServer with other clients")
struct HTTPServerClientCompatibilityTests {
    static let echo: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { request, responder in
        responder.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Array("\(request.method) \(request.body.count)".utf8))
    }

    static var curlPath: String? { FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") ? "/usr/bin/curl" : nil }

    /// Runs curl and returns its stdout (`-w` adds the status code on the last line).
    static func curl(_ arguments: [String]) async throws -> String {
        try await RawHTTPClient.blocking {
            try runCapturingOutput("/usr/bin/curl", ["-s", "--max-time", "10"] + arguments)
        }
    }

    @Test(.enabled(if: curlPath != nil, "needs /usr/bin/curl"))
    func curlUploadOverTheLimitGetsJSON413BeforeSendingTheBody() async throws {
        try await withTestServer({ $0.maxBodyBytes = 64 * 1024 }, handler: Self.echo) { _, port in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("sg-upload-\(UUID().uuidString)")
            try Data(count: 2 * 1024 * 1024).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            // curl sends `Expect: 100-continue` for a body this large; the server refuses from the head alone.
            let output = try await Self.curl(["-w", "\n%{http_code}", "--data-binary", "@\(file.path)",
                                              "http://127.0.0.1:\(port)/v1/chat/completions"])
            let lines = output.split(separator: "\n")
            #expect(lines.last == "413")
            #expect(lines.first?.hasPrefix("{\"error\":{\"message\":\"The request body is over this endpoint's size limit of 65536 bytes") == true)
        }
    }

    @Test(.enabled(if: curlPath != nil, "needs /usr/bin/curl"))
    func curlReceivesAStreamChunkByChunk() async throws {
        try await withTestServer(handler: { _, responder in
            do {
                try await responder.startStream(status: 200, headers: ["Content-Type": "text/event-stream"])
                for i in 0..<3 { try await responder.write(Array("data: \(i)\n\n".utf8)) }
                responder.end()
            } catch {}
        }) { _, port in
            let output = try await Self.curl(["-N", "http://127.0.0.1:\(port)/stream"])
            #expect(output == "data: 0\n\ndata: 1\n\ndata: 2\n\n")
        }
    }

    @Test func http10RequestWithoutKeepAliveIsClosedAfterTheReply() async throws {
        try await withTestServer(handler: Self.echo) { _, port in
            let (response, closed) = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("GET / HTTP/1.0\r\n\r\n")
                let response = client.readResponse()
                return (response, client.readUntilClosed().closed)
            }
            #expect(response?.bodyText == "GET 0")
            #expect(closed)
        }
    }

    @Test func headRequestGetsHeadersWithoutBody() async throws {
        try await withTestServer(handler: Self.echo) { _, port in
            let responses = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n" + rawGET("/"))
                // The HEAD reply announces a length but carries no body: the next bytes are the GET reply.
                let head = client.readResponseHead()
                return (head, client.readResponse())
            }
            #expect(responses.0 == 200)
            #expect(responses.1?.bodyText == "GET 0")
        }
    }

    @Test(arguments: [204, 304])
    func bodylessStatusNeverPutsABodyOnTheWire(_ status: Int) async throws {
        try await withTestServer(handler: { request, responder in
            if request.path == "/empty" {
                responder.respond(status: status, headers: [:], body: Array("must not be sent".utf8))
            } else {
                responder.respond(status: 200, headers: [:], body: Array("next".utf8))
            }
        }) { _, port in
            let next = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/empty") + rawGET("/next"))
                let first = client.readResponseHead()
                return (first, client.readResponse()?.bodyText)
            }
            #expect(next.0 == status)
            #expect(next.1 == "next")
        }
    }
}

/// Runs `executable` and returns what it wrote to stdout (`SpawnedProcess`: `posix_spawn`, not Foundation's
/// `Process`, and no descriptor of another test's held open by the child).
func runCapturingOutput(_ executable: String, _ arguments: [String]) throws -> String {
    try SpawnedProcess(executable, arguments, environment: ["PATH=/usr/bin:/bin", "LC_ALL=C", "no_proxy=*"], collectStandardError: false)
        .waitUntilExit()
}
