/// Which HTTP version an outbound request uses.
public enum HTTPVersion: String, Sendable, Hashable, CaseIterable {
    /// HTTP/2 when a TLS server offers it through ALPN (every large provider does: many requests then share one
    /// connection), HTTP/1.1 otherwise. The default.
    case negotiated = "auto"
    /// HTTP/1.1 only, one request per connection at a time (for servers whose HTTP/2 misbehaves).
    case http1 = "1.1"
    // Cleartext HTTP/2 with prior knowledge is deliberately absent: libcurl 7.88 (Debian 12) breaks a reused
    // prior-knowledge connection ("Error in the HTTP2 framing layer", curl issue #10634, fixed in 8.0), so every
    // second concurrent stream to such an upstream would fail.
}
