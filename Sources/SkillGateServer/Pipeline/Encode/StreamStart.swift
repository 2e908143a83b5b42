import SkillGateHTTP
import Synchronization

/// Starts an SSE response once, at the first write (progress comments) or at the answer.
final class StreamStart: Sendable {
    private let responder: HTTPResponder
    private let headers: HTTPHeaders
    private let started = Mutex(false)

    init(responder: HTTPResponder, headers: HTTPHeaders) {
        self.responder = responder
        self.headers = headers
    }

    var isStarted: Bool { started.locked { $0 } }

    func start() async throws {
        guard !started.locked({ s in defer { s = true }; return s }) else { return }
        try await responder.startStream(status: 200, headers: headers)
    }

    func write(_ bytes: [UInt8]) async throws {
        try await start()
        try await responder.write(bytes)
    }
}
