import Foundation
import SkillGateCore

/// Per-request state shared by the pipeline steps.
struct RequestContext: Sendable {
    let requestId: String
    let started: ContinuousClock.Instant
    var log: RequestLogEntry

    init(method: String, path: String) {
        requestId = RequestIdGenerator.next()
        started = .now
        log = RequestLogEntry(requestId: requestId, method: method, path: path)
    }

    /// Milliseconds since the request arrived.
    var elapsedMs: Double {
        let d = ContinuousClock.now - started
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }
}
