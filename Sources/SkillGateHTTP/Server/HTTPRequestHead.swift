/// A request's head — request line and header fields — as the server sees it before reading any body.
public struct HTTPRequestHead: Sendable {
    /// The request method as sent (`GET`, `POST`, ...).
    public var method: String
    /// The request path without the query, not percent-decoded.
    public var path: String
    /// The query string after `?`, or `nil` when the target had none.
    public var query: String?
    /// The request header fields in arrival order.
    public var headers: HTTPHeaders
    /// The peer as `address:port`.
    public var remoteAddress: String
    /// What the `headGate` learned while admitting this request (`HTTPHeadDecision.admit`); nil before it ran.
    public var admission: (any HTTPAdmission)?

    /// A head as the server reads it (tests build their own to exercise a `headGate`).
    public init(method: String, path: String, query: String? = nil, headers: HTTPHeaders = [:], remoteAddress: String = "") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.remoteAddress = remoteAddress
    }
}

/// What the server does with a request once its head is read (`HTTPServer.Configuration.headGate`).
public enum HTTPHeadDecision: Sendable {
    /// Read the body, up to `Configuration.maxBodyBytes`, and hand the request to the handler.
    case accept
    /// `accept`, and hand `admission` to the handler with the request (`HTTPServerRequest.admission`): what the gate
    /// found out (the caller it authenticated), so the handler need not find it out again.
    case admit(any HTTPAdmission)
    /// Read at most this many body bytes (more is refused with 413), then hand the request to the handler:
    /// for requests that are not authenticated yet but are allowed through (health checks, 404s).
    case acceptWithBodyLimit(Int)
    /// Answer now with this response (`Connection: close` is added) without reading the body, and close
    /// the connection.
    case reject(status: Int, headers: HTTPHeaders, body: [UInt8])
    /// The decision needs work that must not run on the event loop (a token that is not in memory: a database
    /// read). The server stops reading the connection, starts `decision` and goes on serving its other
    /// connections; the request continues once `decision` reports what to do (any case but this one).
    case decideLater(HTTPDeferredHeadDecision)
}

/// A `headGate` decision made off the event loop (`HTTPHeadDecision.decideLater`).
public struct HTTPDeferredHeadDecision: Sendable {
    /// Starts the work and returns at once; calls `decided` exactly once, from any thread, with the decision.
    public let start: @Sendable (_ decided: @escaping @Sendable (HTTPHeadDecision) -> Void) -> Void

    /// A decision that `start` makes elsewhere and reports to `decided`.
    public init(_ start: @escaping @Sendable (_ decided: @escaping @Sendable (HTTPHeadDecision) -> Void) -> Void) {
        self.start = start
    }
}

/// What a `headGate` found out about a request it let through (for a gateway: the caller its token names), handed to
/// the handler with that request only. The server never looks inside; the handler casts it to its own type.
public protocol HTTPAdmission: AnyObject, Sendable {}
