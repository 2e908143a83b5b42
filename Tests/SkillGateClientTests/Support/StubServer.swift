import Foundation
import SkillGateHTTP

/// A loopback HTTP server that answers every request with the same canned response, for answers
/// a real gateway does not give on demand (429 with Retry-After, bodies that are not SkillGate's).
final class StubServer: Sendable {
    private let server: HTTPServer

    init(status: Int, headers: [String: String], body: String) throws {
        server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, loops: 1),
                                handler: Canned(status: status, headers: HTTPHeaders(headers.map { ($0.key, $0.value) }), body: Array(body.utf8)))
        try server.start()
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(server.boundPort)")! }

    func stop() async { await server.shutdown(deadline: .seconds(1)) }

    private struct Canned: HTTPHandler {
        let status: Int
        let headers: HTTPHeaders
        let body: [UInt8]

        func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
            responder.respond(status: status, headers: headers, body: body)
        }
    }
}
