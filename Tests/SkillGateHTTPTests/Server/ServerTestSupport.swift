import Foundation
import SkillGateHTTP
import Synchronization

/// A handler made of a closure.
struct ServerTestHandler: HTTPHandler {
    let body: @Sendable (HTTPServerRequest, HTTPResponder) async -> Void
    init(_ body: @escaping @Sendable (HTTPServerRequest, HTTPResponder) async -> Void) { self.body = body }
    func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async { await body(request, responder) }
}

/// Starts a server on 127.0.0.1 with an ephemeral port, runs `body`, and shuts the server down.
func withTestServer<T>(_ configure: (inout HTTPServer.Configuration) -> Void = { _ in },
                   handler: @escaping @Sendable (HTTPServerRequest, HTTPResponder) async -> Void,
                   _ body: (HTTPServer, Int) async throws -> T) async throws -> T {
    var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, loops: 2)
    configure(&configuration)
    let server = try HTTPServer(configuration: configuration, handler: ServerTestHandler(handler))
    try server.start()
    do {
        let result = try await body(server, server.boundPort)
        await server.shutdown(deadline: .seconds(1))
        return result
    } catch {
        await server.shutdown(deadline: .seconds(1))
        throw error
    }
}

/// For tests whose connections sit idle while the test goes on: idle connections must outlive the test, however slowly
/// a loaded machine runs it. The server closes an idle keep-alive connection after `idleKeepAliveTimeout` and cuts
/// reply bytes left unread for the shortest of these timeouts (10 s by default; evhttp, before decision 0058, applied
/// that one to every read), and in full parallel runs such tests took up to 29 s: the server closed their idle connections, which read
/// as a close the server missed or as connections it never counted (decision 0034).
func keepIdleConnectionsOpen(_ configuration: inout HTTPServer.Configuration) {
    configuration.headerTimeout = .seconds(300)
    configuration.bodyReadTimeout = .seconds(300)
    configuration.idleKeepAliveTimeout = .seconds(300)
}

/// A value set by one task and awaited (with a deadline) by another. The default deadline is long:
/// it only bounds a test that is failing anyway, and a short one fails tests whose setter waits for a
/// cooperative-pool thread that tests running in parallel keep busy for seconds.
final class ServerTestFlag<Value: Sendable>: Sendable {
    private let state = Mutex<Value?>(nil)
    func set(_ value: Value) { state.locked { if $0 == nil { $0 = value } } }
    var value: Value? { state.locked { $0 } }
    func wait(upTo limit: Duration = .seconds(30)) async -> Value? {
        let end = ContinuousClock.now.advanced(by: limit)
        while ContinuousClock.now < end {
            if let v = value { return v }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return value
    }
}

func rawGET(_ path: String, extraHeaders: String = "") -> String {
    "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\(extraHeaders)\r\n"
}

/// Polls `condition` until it holds or `limit` passes.
///
/// The default is generous because it bounds only a test that is failing anyway: in full parallel `swift test` runs
/// the suite's start launches hundreds of servers and clients at once on two cores, and tests that take a fraction of a
/// second alone took 16–23 s there (decision 0034).
func serverSettles(upTo limit: Duration = .seconds(15), _ condition: @Sendable () -> Bool) async -> Bool {
    let end = ContinuousClock.now.advanced(by: limit)
    while ContinuousClock.now < end {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
