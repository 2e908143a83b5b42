import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateHTTP

/// Per-request state the pipeline's stages share: the id, the clock, where the answer goes, and
/// the log line being filled in.
struct RequestContext: Sendable {
    let requestId: String
    let started: ContinuousClock.Instant
    /// Where the answer goes.
    let responder: HTTPResponder
    var log: RequestLogEntry
    /// The request's admission against its limits (prepare), released by the account stage.
    var limitTicket: LimitTicket?
    /// Whether the in-flight gauges count this request (set once decoded; cleared by the account stage).
    var inFlight = false

    /// `time`: when the request came, on the gateway's wall clock (`GatewayServices.now`).
    init(method: String, path: String, responder: HTTPResponder, time: Date = Date()) {
        requestId = RequestIdGenerator.next()
        started = .now
        self.responder = responder
        log = RequestLogEntry(requestId: requestId, method: method, target: path, time: time)
    }

    /// The request id without its `req_` prefix: the unique part other ids are made of
    /// (`chatcmpl-…`, `msg_…`, `run_…`).
    var idSuffix: Substring { requestId.dropFirst(RequestIdGenerator.prefix.utf8.count) }

    /// Milliseconds since the request arrived.
    var elapsedMs: Double {
        (ContinuousClock.now - started).inMilliseconds
    }
}
