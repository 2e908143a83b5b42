import Foundation
import SkillGateHTTP
import Testing

@Suite("HTTPServer basics")
struct HTTPServerBasicTests {
    static let echo: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { request, responder in
        let text = "\(request.method) \(request.path) \(request.query ?? "-") \(request.headers["X-Probe"] ?? "-") \(request.body.count)"
        responder.respond(status: 200, headers: ["Content-Type": "text/plain", "X-Remote": request.remoteAddress],
                          body: Array(text.utf8))
    }

    @Test func getReachesHandlerWithPathQueryAndHeaders() async throws {
        try await withTestServer(handler: Self.echo) { _, port in
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/v1/models?limit=2&x=%20y", extraHeaders: "X-Probe: hello\r\n"))
                return client.readResponse()
            }
            #expect(response?.status == 200)
            #expect(response?.bodyText == "GET /v1/models limit=2&x=%20y hello 0")
            #expect(response?.header("X-Remote")?.hasPrefix("127.0.0.1:") == true)
            #expect(response?.header("Content-Length") == "\(response?.body.count ?? -1)")
        }
    }

    @Test func postBodyArrivesWholeIncludingChunkedUploads() async throws {
        try await withTestServer(handler: Self.echo) { _, port in
            let responses = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                let body = String(repeating: "a", count: 100_000)
                client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                let first = client.readResponse()
                client.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
                return [first, client.readResponse()]
            }
            #expect(responses[0]?.bodyText == "POST /upload - - 100000")
            #expect(responses[1]?.bodyText == "POST /upload - - 11")
        }
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
        try await withTestServer(handler: Self.echo) { _, port in
            let statuses = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                return (0..<20).map { i -> Int in
                    client.send(rawGET("/n/\(i)"))
                    return client.readResponse()?.status ?? -1
                }
            }
            #expect(statuses == Array(repeating: 200, count: 20))
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withTestServer(handler: { request, responder in
            if request.path == "/slow" { try? await Task.sleep(for: .milliseconds(50)) }
            responder.respond(status: 200, headers: [:], body: Array(request.path.utf8))
        }) { _, port in
            let bodies = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/slow") + rawGET("/fast"))
                return [client.readResponse()?.bodyText, client.readResponse()?.bodyText]
            }
            #expect(bodies == ["/slow", "/fast"])
        }
    }

    @Test func handlerFramingHeadersCannotBreakTheReply() async throws {
        try await withTestServer(handler: { _, responder in
            responder.respond(status: 200, headers: ["Content-Length": "999", "Transfer-Encoding": "chunked"],
                              body: Array("short".utf8))
        }) { _, port in
            let bodies = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/a") + rawGET("/b"))
                return [client.readResponse(), client.readResponse()]
            }
            #expect(bodies.map { $0?.bodyText } == ["short", "short"])
            #expect(bodies.first??.header("Content-Length") == "5")
        }
    }

    @Test func handlerReturningWithoutReplyGetsJSON500() async throws {
        try await withTestServer(handler: { _, _ in }) { _, port in
            let response = try await RawHTTPClient.blocking {
                let client = try RawHTTPClient(port: port)
                client.send(rawGET("/"))
                return client.readResponse()
            }
            #expect(response?.status == 500)
            #expect(response?.header("Content-Type") == "application/json")
            #expect(response?.bodyText.hasPrefix("{\"error\":{\"message\":\"The request handler finished without") == true)
        }
    }

    @Test func manyConcurrentClientsAcrossLoopsAllSucceed() async throws {
        try await withTestServer({ $0.loops = 2 }, handler: Self.echo) { _, port in
            let ok = try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<16 {
                    group.addTask {
                        try await RawHTTPClient.blocking {
                            let client = try RawHTTPClient(port: port)
                            var good = 0
                            for _ in 0..<10 {
                                client.send(rawGET("/c/\(i)"))
                                if client.readResponse()?.bodyText == "GET /c/\(i) - - 0" { good += 1 }
                            }
                            return good
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(ok == 160)
        }
    }

    @Test(arguments: [
        (HTTPServer.Configuration(host: "127.0.0.1", port: 70_000), HTTPServerError.Kind.invalidConfiguration),
        (HTTPServer.Configuration(host: "127.0.0.1", port: 0, maxBodyBytes: 0), .invalidConfiguration),
        (HTTPServer.Configuration(host: "127.0.0.1", port: 0, headerTimeout: .zero), .invalidConfiguration),
    ])
    func invalidConfigurationIsRefused(_ configuration: HTTPServer.Configuration, _ kind: HTTPServerError.Kind) {
        #expect {
            _ = try HTTPServer(configuration: configuration, handler: ServerTestHandler(Self.echo))
        } throws: { ($0 as? HTTPServerError)?.kind == kind }
    }

    @Test func hostThatIsNotANumericAddressFailsToStart() throws {
        let server = try HTTPServer(configuration: .init(host: "localhost", port: 0, loops: 1), handler: ServerTestHandler(Self.echo))
        #expect { try server.start() } throws: { error in
            guard let error = error as? HTTPServerError else { return false }
            return error.kind == .bindFailed && error.message.contains("not a numeric IP address")
        }
    }

    @Test func servesOnIPv6Loopback() async throws {
        guard (try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8))?.contains("00000000000000000000000000000001") == true else { return }
        let server = try HTTPServer(configuration: .init(host: "::1", port: 0, loops: 1), handler: ServerTestHandler(Self.echo))
        try server.start()
        #expect(server.boundPort > 0)
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(server.boundPort).bigEndian)
        address.sin6_addr = in6addr_loopback
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        #expect(connected == 0)
        await server.shutdown(deadline: .milliseconds(100))
    }

    @Test func startFailsWithActionableMessageWhenPortIsTaken() async throws {
        try await withTestServer(handler: Self.echo) { _, port in
            // SO_REUSEPORT only shares a port between sockets of the same user that all set it: a plain
            // bind on the same port must fail. Use a non-reuseport listener to take a port instead.
            let blocker = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            defer { close(blocker) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(blocker, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            listen(blocker, 1)
            var bound = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &bound) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(blocker, $0, &length) }
            }
            let takenPort = Int(UInt16(bigEndian: bound.sin_port))
            let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: takenPort, loops: 1),
                                        handler: ServerTestHandler(Self.echo))
            #expect(throws: HTTPServerError.self) { try server.start() }
            do { try server.start() } catch let error as HTTPServerError {
                #expect(error.kind == .addressInUse)
                #expect(error.message.contains("\(takenPort)"))
            }
            _ = port
        }
    }
}
