#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SkillGateHTTP

/// The client's upstream sockets are close-on-exec: a child process the gateway starts (an MCP stdio server) or a
/// test's subprocess must not inherit an upstream connection and keep it open after the gateway closed it.
@Suite struct HTTPClientSocketInheritanceTests {
    /// The descriptors of this process that are TCP sockets connected to 127.0.0.1:`port`.
    static func sockets(connectedTo port: Int) -> [Int32] {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return (3..<Int32(min(limit.rlim_cur, 65_536))).filter { fd in
            var st = stat()
            guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK else { return false }
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) == 0 }
            }
            return ok && address.sin_family == sa_family_t(AF_INET) && Int(UInt16(bigEndian: address.sin_port)) == port
        }
    }

    @Test(arguments: ClientEngine.allCases) func upstreamConnectionsAreCloseOnExec(_ engine: ClientEngine) async throws {
        let server = try LoopbackServer(.drip(intervalMs: 20))
        let client = ClientTestEnvironment.makeClient(engine)
        // A stream under way holds its connection open: find it by its peer.
        let response = try await client.stream(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/"))
        #expect(response.status == 200)
        let found = Self.sockets(connectedTo: server.port)
        #expect(!found.isEmpty, "the connection to the test server")
        for fd in found {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "descriptor \(fd) would be inherited by a child process")
        }
        client.shutdown()
        server.stop()
    }
}
