#if canImport(Glibc)
import Glibc
#endif
@testable import SkillGateHTTP

/// Process-wide setup for tests that create an `HTTPClient`. libcurl reads the proxy variables
/// from the environment, and the environment is shared by every test running in parallel, so it
/// is set exactly once, before the first client exists: `http_proxy` and `HTTPS_PROXY` point at a
/// loopback proxy stand-in, and `no_proxy` keeps every 127.0.0.1 test server direct. Only
/// requests to the unresolvable host `proxy-only.invalid` can reach anything, and only through
/// the proxy.
enum ClientTestEnvironment {
    static let proxyOnlyHost = "proxy-only.invalid"

    static let proxy: Result<LoopbackServer, any Error> = {
        Result {
            let server = try LoopbackServer(.proxy)
            setenv("http_proxy", "http://127.0.0.1:\(server.port)", 1)
            setenv("HTTPS_PROXY", "http://127.0.0.1:\(server.port)", 1)
            unsetenv("https_proxy")
            unsetenv("ALL_PROXY")
            unsetenv("all_proxy")
            setenv("no_proxy", "127.0.0.1,localhost", 1)
            unsetenv("NO_PROXY")
            return server
        }
    }()

    /// A client created after the environment is prepared.
    static func makeClient(_ configuration: HTTPClient.Configuration = .init()) -> HTTPClient {
        _ = proxy
        return HTTPClient(configuration: configuration)
    }
}

/// Milliseconds between two monotonic timestamps.
func millisecondsBetween(_ start: UInt64, _ end: UInt64) -> Double {
    Double(Int64(bitPattern: end &- start)) / 1e6
}
