import SkillGateHTTP
import Testing

/// The failure-message helper reads what the kernel says about a server's socket correctly.
@Suite struct SocketDiagnosticsTests {
    @Test func anOpenIdleConnectionIsEstablishedAndWatchedByALoop() async throws {
        try await withTestServer({ keepIdleConnectionsOpen(&$0) }, handler: HTTPServerConnectionLimitTests.ok) { server, port in
            let idle = try await HTTPServerConnectionLimitTests.openIdle(1, port: port, server: server)
            let text = SocketDiagnostics.serverSide(serverPort: port, clientPort: idle[0].localPort)
            #expect(text.contains("server side ESTABLISHED"), "\(text)")
            #expect(text.contains("in epoll sets [\""), "\(text)")
            #expect(SocketDiagnostics.serverSide(serverPort: port, clientPort: 1).contains("no server-side socket"))
        }
    }
}
