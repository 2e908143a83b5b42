import Synchronization

/// One inbound HTTP request, fully read (head and body) before the handler runs.
public struct HTTPServerRequest: Sendable {
    /// The request method as sent (`GET`, `POST`, ...).
    public var method: String
    /// The request path without the query (`/v1/chat/completions`), not percent-decoded.
    public var path: String
    /// The query string after `?`, without the `?`, or `nil` when the target had none.
    public var query: String?
    /// The request header fields in arrival order.
    public var headers: HTTPHeaders
    /// The complete request body (chunked bodies arrive de-chunked). Setting it gives this copy a body of its own.
    public var body: [UInt8] {
        get { bodyStorage.bytes.locked { $0 } }
        set { bodyStorage = RequestBodyStorage(newValue) }
    }
    private var bodyStorage: RequestBodyStorage
    /// The peer as `address:port` (`127.0.0.1:53122`).
    public var remoteAddress: String
    /// What the server's `headGate` found out while admitting this request (`HTTPHeadDecision.admit`), else nil.
    public var admission: (any HTTPAdmission)?

    public init(method: String, path: String, query: String? = nil, headers: HTTPHeaders = [:],
                body: [UInt8] = [], remoteAddress: String = "", admission: (any HTTPAdmission)? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        bodyStorage = RequestBodyStorage(body)
        self.remoteAddress = remoteAddress
        self.admission = admission
    }

    /// Frees the body once it has been decoded, for a handler that runs long after (a held stream): the event loop
    /// keeps its copy of the request until the handler returns (decision 0036). Every copy of this request reads an
    /// empty body afterwards; one whose body was set since has its own.
    public func releaseBody() {
        bodyStorage.bytes.locked { $0 = [] }
    }
}

/// A request body shared by the copies of one `HTTPServerRequest`, so that one of them can release it.
private final class RequestBodyStorage: Sendable {
    let bytes: Mutex<[UInt8]>
    init(_ bytes: [UInt8]) { self.bytes = Mutex(bytes) }
}

/// Handles inbound requests for an `HTTPServer`.
public protocol HTTPHandler: Sendable {
    /// Answers `request` through `responder` (one `respond`, or `startStream` + `write`s + `end`).
    ///
    /// Runs in a Swift Task per request, on the event loop that received it (its preferred task
    /// executor): do not block here. The Task is cancelled when the client disconnects.
    /// Returning without answering sends a 500; returning mid-stream ends the stream.
    func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async
}
