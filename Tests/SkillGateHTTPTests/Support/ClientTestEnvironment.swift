#if canImport(Glibc)
import Glibc
#endif
import CTestProxyEnvironment
import Testing
@testable import SkillGateHTTP

/// Process-wide setup for tests that create an `HTTPClient`. libcurl reads the proxy variables from the
/// environment, which every test running in parallel shares, and changing it while other threads read it is
/// undefined behaviour: so a C constructor (`Tests/CTestProxyEnvironment`) binds the proxy stand-in's socket and
/// sets `http_proxy` and `HTTPS_PROXY` to it and `no_proxy` to keep every 127.0.0.1 test server direct, before the
/// test process's `main`. Here the stand-in starts serving that socket. Only requests to the unresolvable host
/// `proxy-only.invalid` can reach anything, and only through the proxy.
enum ClientTestEnvironment {
    static let proxyOnlyHost = "proxy-only.invalid"

    static let proxy: Result<LoopbackServer, any Error> = {
        Result {
            let fd = sg_test_proxy_listen_fd()
            guard fd >= 0 else { throw LoopbackError("the proxy stand-in's socket could not be bound before main") }
            return LoopbackServer(.proxy, listeningOn: fd, port: Int(sg_test_proxy_port()))
        }
    }()

    /// A client created after the environment is prepared.
    static func makeClient(_ configuration: HTTPClient.Configuration = .init()) -> HTTPClient {
        _ = proxy
        return HTTPClient(configuration: configuration)
    }

    /// A client whose plain `http://` requests to the test servers go through `engine`.
    static func makeClient(_ engine: ClientEngine, _ configuration: HTTPClient.Configuration = .init()) -> HTTPClient {
        var configuration = configuration
        configuration.usesOwnHTTP1Client = engine == .ownHTTP1
        return makeClient(configuration)
    }
}

/// Which client carries a test's plain `http://` requests: the client's contract (statuses, timeouts, cancellation,
/// pooling, limits) is the same on both (decision 0051), so the fault tests run on each.
enum ClientEngine: String, CaseIterable, CustomTestStringConvertible {
    case libcurl
    case ownHTTP1

    var testDescription: String { rawValue }
}

/// Milliseconds between two monotonic timestamps.
func millisecondsBetween(_ start: UInt64, _ end: UInt64) -> Double {
    Double(Int64(bitPattern: end &- start)) / 1e6
}
