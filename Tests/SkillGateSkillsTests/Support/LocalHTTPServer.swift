import Synchronization
import SkillGateHTTP

/// A scripted HTTP server on 127.0.0.1 (ephemeral port) built on SkillGate's `HTTPServer`: each
/// request is answered by `respond`, and every request is recorded.
final class LocalHTTPServer: HTTPHandler {
    struct Reply: Sendable {
        var status: Int = 200
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        var body: [UInt8] = Array("ok".utf8)
        var delay: Duration? = nil
    }

    private let respond: @Sendable (HTTPServerRequest) -> Reply
    private let seen = Mutex<[HTTPServerRequest]>([])
    private let server = Mutex<HTTPServer?>(nil)
    private let boundPort = Mutex(0)

    init(_ respond: @escaping @Sendable (HTTPServerRequest) -> Reply) throws {
        self.respond = respond
        let s = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: self)
        try s.start()
        server.locked { $0 = s }
        boundPort.locked { $0 = s.boundPort }
    }

    var port: Int { boundPort.locked { $0 } }
    func url(_ path: String = "/") -> String { "http://127.0.0.1:\(port)\(path)" }
    var requests: [HTTPServerRequest] { seen.locked { $0 } }

    func stop() async {
        // The server is dropped once stopped: it holds its event loops, which hold this handler
        // (a cycle that AddressSanitizer's leak check reported; docs/decisions/0025).
        if let s = server.locked({ s in defer { s = nil }; return s }) { await s.shutdown(deadline: .milliseconds(100)) }
    }

    func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
        seen.locked { $0.append(request) }
        let reply = respond(request)
        if let delay = reply.delay {
            try? await Task.sleep(for: delay)
            if Task.isCancelled { return }
        }
        responder.respond(status: reply.status, headers: reply.headers, body: reply.body)
    }
}
