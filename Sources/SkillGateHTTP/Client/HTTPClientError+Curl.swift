import CCurl

extension HTTPClientError {
    /// Maps a libcurl result to an error kind, with libcurl's detail text and what to do next.
    /// The URL is not repeated (its query may carry a key); libcurl's text names host and port.
    init(curlCode code: CURLcode, transfer: CurlTransfer) {
        let summary = String(cString: curl_easy_strerror(code))
        let text = transfer.curlErrorText
        let detail = text.isEmpty ? summary : "\(summary): \(text)"
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            self.init(kind: .connect, detail: "\(detail); check the host name, port, proxy settings and that the upstream is up")
        case CURLE_OPERATION_TIMEDOUT:
            // Only the connect timeout is given to libcurl; the others are enforced by the loop.
            self.init(kind: .connectTimeout, detail: "\(detail); the upstream did not accept the connection in time, check reachability or raise HTTPTimeouts.connect")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED:
            self.init(kind: .tls, detail: "\(detail); check the upstream's certificate and the system CA bundle")
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_FUNCTION_ARGUMENT:
            self.init(kind: .invalidRequest, detail: "\(detail); check the URL (absolute http:// or https://)")
        case CURLE_ABORTED_BY_CALLBACK:
            self = .cancelledByTask
        default:
            self.init(kind: .transport, detail: "\(detail); the connection broke, retry the request")
        }
    }
}
