extension HTTPClient {
    /// Settings shared by every request of one client.
    public struct Configuration: Sendable {
        /// Most connections kept open in the pool, and most connections to one host at a time
        /// (`CURLMOPT_MAXCONNECTS`, `CURLMOPT_MAX_HOST_CONNECTIONS`). Requests beyond it wait for a
        /// free connection instead of opening new ones.
        public var maxConnections: Int
        /// Largest response body `send(_:)` accepts; a longer body fails the request.
        /// Streamed bodies (`stream(_:)`) have no such limit.
        public var maxResponseBytes: Int
        /// Sent as `User-Agent` unless the request sets its own.
        public var userAgent: String
        /// Negotiate HTTP/2 through ALPN on TLS connections when the server offers it
        /// (`CURL_HTTP_VERSION_2TLS`); plain-text connections stay on HTTP/1.1.
        public var prefersHTTP2: Bool
        /// Bytes a streamed body may buffer ahead of a slow consumer before the transfer is paused.
        public var streamBufferBytes: Int
        /// How long the client's thread may spin (check without sleeping) for the next request
        /// after its last transfer finished, and for the answer of its only transfer, before it
        /// blocks in its libevent loop. Spinning saves a wake-up (syscalls on both sides and a
        /// thread switch) when requests come back to back or a local upstream answers within
        /// microseconds; each wait spins only while the previous such wait was shorter than this,
        /// so idle, sporadic or slow traffic costs nothing. `.zero` turns it off. Correctness never
        /// depends on it: a submission always activates the loop's wake event.
        public var spinWindow: Duration
        /// Run a request made by a task on an `HTTPServer` event loop (a request handler) on that loop's thread,
        /// through a multi handle of this client for that loop, instead of handing it to the client's own thread
        /// (decision 0035). Each loop then has its own connection pool, and `maxConnections` is shared out over the
        /// server's loops (rounded up). Requests made elsewhere always use the client's own thread.
        public var usesServerEventLoops: Bool
        /// Carry plain `http://` requests to numeric (or pinned) addresses on SkillGate's own HTTP/1.1 client instead of
        /// libcurl (decision 0051): the same timeouts, pooling and errors for a fraction of libcurl's work per request.
        /// TLS, HTTP/2, names that need DNS and proxied requests always use libcurl.
        public var usesOwnHTTP1Client: Bool
        /// A kept-alive connection idle for longer than this is closed instead of carrying the next request
        /// (`CURLOPT_MAXAGE_CONN`, whole seconds, at least one, for libcurl). A firewall or NAT between the gateway and
        /// its upstream may forget a quiet flow without telling either side; a request sent on such a connection would
        /// wait for TCP's retransmissions to give up. libcurl's default is 118 s.
        public var maxIdleConnectionAge: Duration

        public init(maxConnections: Int = 32, maxResponseBytes: Int = 32 * 1024 * 1024,
                    userAgent: String = "SkillGate/1.0", prefersHTTP2: Bool = true,
                    streamBufferBytes: Int = 256 * 1024, spinWindow: Duration = .microseconds(50),
                    usesServerEventLoops: Bool = true, usesOwnHTTP1Client: Bool = true,
                    maxIdleConnectionAge: Duration = .seconds(118)) {
            self.maxIdleConnectionAge = max(.zero, maxIdleConnectionAge)
            self.usesServerEventLoops = usesServerEventLoops
            self.usesOwnHTTP1Client = usesOwnHTTP1Client
            self.spinWindow = max(.zero, min(spinWindow, .milliseconds(1)))
            self.maxConnections = max(1, maxConnections)
            self.maxResponseBytes = max(0, maxResponseBytes)
            self.userAgent = userAgent
            self.prefersHTTP2 = prefersHTTP2
            self.streamBufferBytes = max(1, streamBufferBytes)
        }
    }
}
