/// Timeouts of one outbound request. `nil` means no limit of that kind.
public struct HTTPTimeouts: Sendable, Hashable {
    /// Time to establish the connection (TCP and TLS).
    public var connect: Duration?
    /// Time from sending the request until the first byte of the response headers.
    public var firstByte: Duration?
    /// Longest silence between two chunks of the response body.
    public var idle: Duration?
    /// Time for the whole exchange.
    public var total: Duration?
    /// Time from the call until the response head arrives, whatever the call waits for on the way: a free pooled
    /// connection, connecting, sending, the upstream's answer. `connect` and `firstByte` each bound one step; this
    /// bounds them all, the wait for a connection included. It ends as `.connectionWaitTimeout` while the request waits
    /// for a pooled connection, as `.headTimeoutWhileConnecting` while its connection is being made, and as
    /// `.firstByteTimeout` once it has gone out.
    public var head: Duration?

    public init(connect: Duration? = .seconds(10), firstByte: Duration? = .seconds(120),
                idle: Duration? = .seconds(120), total: Duration? = .seconds(600), head: Duration? = nil) {
        self.connect = connect
        self.firstByte = firstByte
        self.idle = idle
        self.total = total
        self.head = head
    }
}

/// An outbound HTTP request.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The absolute URL (`https://api.openai.com/v1/chat/completions`).
    public var url: String
    public var headers: HTTPHeaders
    public var body: [UInt8]
    public var timeouts: HTTPTimeouts
    /// Connect to this address instead of resolving the URL's host (libcurl `CURLOPT_RESOLVE`),
    /// so a host checked once cannot resolve elsewhere at connect time (DNS rebinding). A pinned
    /// request bypasses proxies: a proxy would resolve the host itself.
    public var pin: HTTPAddressPin?
    /// Whether the connection may be kept for later requests (libcurl `CURLOPT_FORBID_REUSE` when
    /// not). Off for servers that answer a kept-alive connection slowly: a small HTTP/1.1 server
    /// that writes headers and body separately without TCP_NODELAY waits for the client's delayed
    /// ACK (40 ms on Linux) on every reused connection; a fresh loopback connection costs ~0.1 ms.
    public var reuseConnection = true
    /// HTTP/1.1, HTTP/2 through ALPN, or HTTP/2 over cleartext (`HTTPVersion`).
    public var httpVersion: HTTPVersion = .negotiated
    /// A PEM file of the certificate authorities trusted for this request's TLS connection, in place of the system's
    /// (libcurl `CURLOPT_CAINFO`): for upstreams whose certificate a private CA signed. `nil` keeps the system store.
    /// A kept-alive connection is reused only by requests that trust the same file.
    public var caFile: String?

    public init(method: String = "POST", url: String, headers: HTTPHeaders = [:], body: [UInt8] = [], timeouts: HTTPTimeouts = HTTPTimeouts(),
                pin: HTTPAddressPin? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeouts = timeouts
        self.pin = pin
    }
}

/// Host and port of a URL bound to numeric addresses (IPv4 dotted or IPv6 without brackets),
/// tried in order.
public struct HTTPAddressPin: Sendable, Hashable {
    public var host: String
    public var port: Int
    public var addresses: [String]

    public init(host: String, port: Int, addresses: [String]) {
        self.host = host
        self.port = port
        self.addresses = addresses
    }

    /// libcurl's `HOST:PORT:ADDRESS[,ADDRESS]` form (IPv6 in brackets).
    var curlEntry: String { "\(host):\(port):" + addresses.map { $0.contains(":") ? "[\($0)]" : $0 }.joined(separator: ",") }
}

/// A complete HTTP response.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// A response whose head has arrived and whose body is still streaming.
public struct HTTPStreamingResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    /// Reads the body in the calling task; releasing it (with every `body` stream made from it) aborts the transfer
    /// and closes the connection.
    public let bodyReader: HTTPBodyReader

    /// The body in chunks as they arrive, read from `bodyReader`. Ending iteration early (or cancelling the consuming
    /// task) aborts the transfer and closes the connection.
    public var body: AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream { [bodyReader] in try await bodyReader.next() }
    }

    init(status: Int, headers: HTTPHeaders, bodyReader: HTTPBodyReader) {
        self.status = status
        self.headers = headers
        self.bodyReader = bodyReader
    }

    /// Reads the rest of the body, up to `limit` bytes (the rest is discarded).
    public func collectBody(limit: Int = 8 * 1024 * 1024) async throws -> [UInt8] {
        var out: [UInt8] = []
        for try await chunk in body where out.count < limit {
            out.append(contentsOf: chunk.prefix(limit - out.count))
        }
        return out
    }
}

/// Why an outbound request failed before a complete response arrived.
public struct HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// Could not resolve the host or connect (refused, unreachable).
        case connect
        /// The connect timeout elapsed.
        case connectTimeout
        /// No response head arrived within the first-byte timeout (or, after the request went out, the head timeout).
        case firstByteTimeout
        /// The head timeout elapsed while the request still waited for a free pooled connection (the client's own
        /// queue, `Configuration.maxConnections`). The upstream never saw it.
        case connectionWaitTimeout
        /// The head timeout elapsed while a connection to the upstream was being made, before the connect timeout: the
        /// upstream never saw the request, and was slow to accept it.
        case headTimeoutWhileConnecting
        /// The body stalled longer than the idle timeout.
        case idleTimeout
        /// The total timeout elapsed.
        case totalTimeout
        /// The connection broke mid-transfer (reset, truncated).
        case transport
        /// A whole-body answer outgrew `HTTPClient.Configuration.maxResponseBytes` (the transfer was stopped).
        case responseTooLarge
        /// TLS handshake or certificate failure.
        case tls
        /// The request was cancelled by its task.
        case cancelled
        /// The URL or request was invalid.
        case invalidRequest
    }

    public var kind: Kind
    /// A human-readable detail (libcurl's error text).
    public var detail: String

    public init(kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(detail)" }

    /// Whether the failure is a timeout of any kind.
    public var isTimeout: Bool {
        [.connectTimeout, .connectionWaitTimeout, .headTimeoutWhileConnecting, .firstByteTimeout, .idleTimeout, .totalTimeout].contains(kind)
    }
}
