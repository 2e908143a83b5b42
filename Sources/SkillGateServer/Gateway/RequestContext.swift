import Foundation
import SkillGateCore

/// Per-request state shared by the pipeline steps.
struct RequestContext: Sendable {
    let requestId: String
    let started: ContinuousClock.Instant
    var log: RequestLogEntry

    init(method: String, path: String) {
        requestId = RequestContext.makeId()
        started = .now
        log = RequestLogEntry(requestId: requestId, method: method, path: path)
    }

    /// Milliseconds since the request arrived.
    var elapsedMs: Double {
        let d = ContinuousClock.now - started
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    /// `req_` + 24 hex digits from the system random generator.
    static func makeId() -> String {
        var g = SystemRandomNumberGenerator()
        let a = g.next() as UInt64, b = g.next() as UInt32
        return "req_" + String(a, radix: 16).leftPadded(16) + String(b, radix: 16).leftPadded(8)
    }
}

extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
