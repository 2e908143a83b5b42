/// Which HTTP version an outbound request uses.
public enum HTTPVersion: String, Sendable, Hashable, CaseIterable {
    /// HTTP/2 when a TLS server offers it through ALPN (every large provider does: many requests then share one
    /// connection), HTTP/1.1 otherwise. The default.
    case negotiated = "auto"
    /// HTTP/1.1 only, one request per connection at a time.
    case http1 = "1.1"
    /// HTTP/2 without TLS, assuming the server speaks it ("prior knowledge", h2c): for local or sidecar upstreams
    /// (vLLM or an inference server behind Envoy) that multiplex streams over a few cleartext connections.
    case http2PriorKnowledge = "2-prior-knowledge"
}
