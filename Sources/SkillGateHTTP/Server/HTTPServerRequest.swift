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
    /// The complete request body (chunked bodies arrive de-chunked).
    public var body: [UInt8]
    /// The peer as `address:port` (`127.0.0.1:53122`).
    public var remoteAddress: String

    public init(method: String, path: String, query: String? = nil, headers: HTTPHeaders = [:],
                body: [UInt8] = [], remoteAddress: String = "") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }
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
