import Foundation
import SkillGateHTTP
import Testing

/// One gateway per listen address unless they opt in to sharing it (`reusePort`).
@Suite("HTTPServer listen")
struct HTTPServerListenTests {
    static let ok: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void = { _, responder in
        responder.respond(status: 200, headers: [:], body: Array("fine".utf8))
    }

    static func server(port: Int, reusePort: Bool = false, loops: Int = 2) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: port, loops: loops)
        configuration.reusePort = reusePort
        return try HTTPServer(configuration: configuration, handler: ServerTestHandler(ok))
    }

    @Test func secondServerOnTheSameAddressFailsWithAddressInUse() async throws {
        let first = try Self.server(port: 0)
        try first.start()
        let second = try Self.server(port: first.boundPort)
        let error = #expect(throws: HTTPServerError.self) { try second.start() }
        #expect(error?.kind == .addressInUse)
        #expect(error?.message.contains("Stop that process") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("reuse_port") == true)
        await first.shutdown(deadline: .seconds(1))
    }

    @Test func aServerWithReusePortCannotJoinOneWithout() async throws {
        let first = try Self.server(port: 0)
        try first.start()
        let second = try Self.server(port: first.boundPort, reusePort: true)
        #expect(throws: HTTPServerError.self) { try second.start() }
        await first.shutdown(deadline: .seconds(1))
    }

    @Test func serversThatBothOptInShareThePort() async throws {
        let first = try Self.server(port: 0, reusePort: true)
        try first.start()
        let second = try Self.server(port: first.boundPort, reusePort: true)
        try second.start()
        #expect(second.boundPort == first.boundPort)
        let port = first.boundPort
        let response = try await RawHTTPClient.blocking {
            let client = try RawHTTPClient(port: port)
            client.send(rawGET("/"))
            return client.readResponse()
        }
        #expect(response?.bodyText == "fine")
        await first.shutdown(deadline: .seconds(1))
        await second.shutdown(deadline: .seconds(1))
    }

    /// Port 0 binds one ephemeral port that every loop accepts on; many connections all get answers.
    @Test func portZeroServesOnEveryLoop() async throws {
        let server = try Self.server(port: 0, loops: 3)
        try server.start()
        let port = server.boundPort
        #expect(port > 0)
        let bodies = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await RawHTTPClient.blocking {
                        let client = try RawHTTPClient(port: port)
                        client.send(rawGET("/"))
                        return client.readResponse()?.bodyText
                    }
                }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(bodies.allSatisfy { $0 == "fine" })
        let listeners = SocketDiagnostics.listenerInodes(port: port)
        #expect(!listeners.isEmpty && listeners.allSatisfy { SocketDiagnostics.isHeldByThisProcess(socketInode: $0) })
        await server.shutdown(deadline: .seconds(1))
        // Every loop's listening descriptor is closed. (Compared by the sockets' inodes, not by binding the port again:
        // another test's server or client in this process may have been given the freed port meanwhile.)
        let stillHeld = listeners.filter { SocketDiagnostics.isHeldByThisProcess(socketInode: $0) }
        #expect(stillHeld.isEmpty, "listening sockets still open after the shutdown: \(stillHeld)")
    }
}
