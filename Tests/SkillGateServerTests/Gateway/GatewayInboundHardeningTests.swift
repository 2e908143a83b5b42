import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// The gateway's inbound edge: tokens checked before a body is read, a terse readiness probe.
@Suite(.serialized) struct GatewayInboundHardeningTests {
    typealias Harness = GatewayLoopbackTests.Harness

    /// Sends `head` (no body follows) and returns the raw answer and whether the gateway closed.
    static func exchange(_ head: String, port: Int) async throws -> (text: String, closed: Bool) {
        try await RawSocket.run {
            let socket = try RawSocket(port: port)
            socket.send(head)
            return socket.readAll()
        }
    }

    @Test func requestWithoutATokenIsRefusedBeforeItsBodyInTheSurfaceShape() async throws {
        let h = try Harness()
        let port = h.server.boundPort
        let openAI = try await Self.exchange("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000000\r\n\r\n", port: port)
        let anthropic = try await Self.exchange("POST /v1/messages HTTP/1.1\r\nHost: x\r\nx-api-key: sgk_notarealtoken\r\nContent-Length: 4000000\r\n\r\n", port: port)
        let statistics = h.server.serverStatistics
        let log = await h.log()
        await h.stop()
        #expect(openAI.text.hasPrefix("HTTP/1.1 401"), "\(openAI.text)")
        #expect(openAI.closed)
        #expect(openAI.text.contains(#""type":"authentication_error""#) || openAI.text.contains("missing SkillGate token"))
        #expect(openAI.text.lowercased().contains("x-request-id: req_"))
        #expect(anthropic.text.hasPrefix("HTTP/1.1 401"), "\(anthropic.text)")
        #expect(anthropic.text.contains(#""type":"error""#), "the Anthropic surface answers in its own error shape: \(anthropic.text)")
        #expect(anthropic.closed)
        #expect(!anthropic.text.contains("sgk_notarealtoken"), "the presented token was echoed")
        #expect(!log.contains("sgk_notarealtoken"), "the presented token was logged")
        #expect(statistics.refusedAtHead == 2)
    }

    @Test func requestWithAValidTokenStillWorks() async throws {
        let h = try Harness()
        let r = try await h.post("/v1/chat/completions", GatewayLoopbackTests.chat)
        await h.stop()
        #expect(r.status == 200)
    }

    /// The head gate's check is handed on with the request, not trusted blindly: a token revoked after its request's
    /// head was admitted and before its body arrived is refused when the request runs.
    @Test func tokenRevokedBetweenHeadAndBodyIsRefusedWhenTheRequestRuns() async throws {
        let h = try Harness()
        let port = h.server.boundPort
        let tokens = h.server.services.tokens
        let body = GatewayLoopbackTests.chat
        let answer = try await RawSocket.run {
            let socket = try RawSocket(port: port, receiveTimeout: 1)
            socket.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(h.token)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
            Thread.sleep(forTimeInterval: 0.3)   // the head gate runs as soon as the head is in
            _ = try tokens.revoke(name: "test-app")
            socket.send(body)
            return socket.readAll()
        }
        let statistics = h.server.serverStatistics
        await h.stop()
        #expect(statistics.refusedAtHead == 0, "the head gate refused the head: the revocation came too early to test this")
        #expect(answer.text.hasPrefix("HTTP/1.1 401"), "\(answer.text.prefix(300))")
        #expect(answer.text.contains("invalid or revoked SkillGate token"))
    }

    @Test func healthEndpointsTakeNoLargeBody() async throws {
        let h = try Harness()
        let port = h.server.boundPort
        let small = try await Self.exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
        let large = try await Self.exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n", port: port)
        await h.stop()
        #expect(small.text.hasPrefix("HTTP/1.1 200"))
        #expect(large.text.hasPrefix("HTTP/1.1 413"), "\(large.text)")
    }

    /// A 501 for a transfer coding or method the server does not take is the client's to fix (RFC 9112 §6.1 names the
    /// status), so its body says `invalid_request_error`, as a 505's does; it said `api_error` / `internal_error`, which
    /// an SDK shows as the gateway failing (decision 0137).
    @Test(arguments: ["POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
                      "BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n"])
    func a501IsTheCallersToFix(_ request: String) async throws {
        let h = try Harness()
        let port = h.server.boundPort
        let authorized = request.replacingOccurrences(of: "Host: x\r\n", with: "Host: x\r\nAuthorization: Bearer \(h.token)\r\n")
        let answer = try await Self.exchange(authorized, port: port)
        await h.stop()
        #expect(answer.text.hasPrefix("HTTP/1.1 501"), "\(answer.text)")
        #expect(answer.text.contains(#""type":"invalid_request_error""#) && answer.text.contains(#""code":"invalid_request""#), "\(answer.text)")
        #expect(!answer.text.contains("internal_error") && !answer.text.contains("api_error"), "\(answer.text)")
    }

    @Test func readyzSaysOnlyWhetherItIsReady() async throws {
        let h = try Harness()
        let ready = try await h.http.send(HTTPRequest(method: "GET", url: h.base + "/readyz"))
        // A key file readable by others is refused by the key store: the gateway is not ready.
        let keyFile = h.server.services.config.keyFile
        chmod(keyFile, 0o644)
        let notReady = try await h.http.send(HTTPRequest(method: "GET", url: h.base + "/readyz"))
        let log = await h.log()
        await h.stop()
        #expect(ready.status == 200)
        #expect(String(decoding: ready.body, as: UTF8.self) == #"{"status":"ready"}"#)
        #expect(notReady.status == 503)
        let text = String(decoding: notReady.body, as: UTF8.self)
        #expect(text == #"{"status":"not_ready","reason":"key store unreadable"}"#, "\(text)")
        #expect(log.contains("not ready"), "the reason belongs in the log")
    }

    /// A named pipe at the key file's path (decision 0152): `/readyz` says not ready at once, and the gateway goes on
    /// answering. Before, `/readyz` opened the pipe on the event loop and waited for a writer: that loop's connections,
    /// then both loops, stopped answering, and SIGTERM could not stop the process.
    @Test func aNamedPipeAtTheKeyFilesPathLeavesTheGatewayAnswering() async throws {
        let h = try Harness()
        let keyFile = h.server.services.config.keyFile
        #expect(unlink(keyFile) == 0 && mkfifo(keyFile, 0o600) == 0)
        var statuses: [Int] = []
        for _ in 0..<4 { statuses.append(try await h.http.send(HTTPRequest(method: "GET", url: h.base + "/readyz")).status) }
        let health = try await h.http.send(HTTPRequest(method: "GET", url: h.base + "/healthz")).status
        // Let a reader still blocked on the pipe (the defect) go, so the harness can stop.
        let writer = open(keyFile, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        await h.stop()
        #expect(statuses == [503, 503, 503, 503])
        #expect(health == 200)
    }

    @Test func configReadsTheNewServerKeys() throws {
        let json = try JSONValue.parse(Array(#"{"reuse_port":true,"limits":{"max_connections":50,"max_connections_per_ip":5}}"#.utf8))
        let config = try GatewayConfig(json: json, file: "t.json", baseDirectory: "/tmp")
        #expect(config.reusePort)
        #expect(config.limits.maxConnections == 50)
        #expect(config.limits.maxConnectionsPerIP == 5)
        let defaults = try GatewayConfig(json: try JSONValue.parse(Array("{}".utf8)), file: "t.json", baseDirectory: "/tmp")
        #expect(!defaults.reusePort)
        #expect(defaults.limits.maxConnections == 1024)
        #expect(defaults.limits.maxConnectionsPerIP == 0)
        let negative = try JSONValue.parse(Array(#"{"limits":{"max_connections":-1}}"#.utf8))
        #expect(throws: JSONShapeError.self) { _ = try GatewayConfig(json: negative, file: "t.json", baseDirectory: "/tmp") }
    }
}
