import CCurl

/// libcurl's receive buffer per easy handle (its default is 16 KiB), which every transfer in flight keeps.
enum ReceiveBuffer {
    /// Streams: SSE events are a few hundred bytes, a larger one only takes a few more reads, and a gateway holding
    /// thousands of streams holds this many buffers (1 KiB is libcurl's minimum; decision 0036).
    static let stream = 1024
    /// Whole bodies: answers of a few KiB in one or two reads (decision 0033).
    static let whole = 4 * 1024
}

/// The options every easy handle of a loop shares. Set once when a handle is created; libcurl
/// keeps options across transfers, so a recycled handle is not reset (`curl_easy_reset` and
/// setting everything again cost more per request than the whole request's own work).
enum CurlHandleDefaults {
    /// The CA bundle libcurl trusts by default (`CURLOPT_CAINFO` as built; `nil` when it was built without one).
    static let caInfo: String? = sg_default_cainfo().map { String(cString: $0) }
    /// libcurl's smallest upload buffer (`CURLOPT_UPLOAD_BUFFERSIZE`; its default is 64 KiB).
    static let uploadBufferBytes = 16 * 1024

    /// Configures a fresh easy handle. Returns the option libcurl refused, if any.
    static func apply(to easy: UnsafeMutableRawPointer, configuration: HTTPClient.Configuration, receiveBufferBytes: Int) -> CURLoption? {
        var failed: CURLoption?
        func set(_ option: CURLoption, _ code: CURLcode) { if code != CURLE_OK, failed == nil { failed = option } }
        set(CURLOPT_PROTOCOLS_STR, sg_easy_setopt_str(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(CURLOPT_NOSIGNAL, sg_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        set(CURLOPT_SOCKOPTFUNCTION, sg_easy_set_cloexec_sockets(easy))
        // libcurl's smallest upload buffer (the default is 64 KiB per handle): request bodies are handed over
        // whole (CURLOPT_POSTFIELDS), so the buffer only matters for memory, and a gateway holding thousands of
        // streams holds that many handles.
        set(CURLOPT_UPLOAD_BUFFERSIZE, sg_easy_setopt_long(easy, CURLOPT_UPLOAD_BUFFERSIZE, uploadBufferBytes))
        // The receive buffer (`ReceiveBuffer`): set once per handle, because a recycled handle keeps the buffer of its
        // first transfer and libcurl 7.88 does not promise to resize it between transfers; the loop keeps streams'
        // handles apart from whole bodies'.
        set(CURLOPT_BUFFERSIZE, sg_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, receiveBufferBytes))
        set(CURLOPT_WRITEFUNCTION, sg_easy_setopt_datafn(easy, CURLOPT_WRITEFUNCTION, curlWriteCallback))
        set(CURLOPT_HEADERFUNCTION, sg_easy_setopt_datafn(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback))
        set(CURLOPT_XFERINFOFUNCTION, sg_easy_setopt_xferinfofn(easy, CURLOPT_XFERINFOFUNCTION, curlProgressCallback))
        set(CURLOPT_NOPROGRESS, sg_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 0))
        // Proxy CONNECT responses are not the upstream's head.
        set(CURLOPT_SUPPRESS_CONNECT_HEADERS, sg_easy_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1))
        set(CURLOPT_TCP_KEEPALIVE, sg_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1))
        set(CURLOPT_TCP_NODELAY, sg_easy_setopt_long(easy, CURLOPT_TCP_NODELAY, 1))
        // HTTP/2 over TLS via ALPN.
        let version = configuration.prefersHTTP2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1
        set(CURLOPT_HTTP_VERSION, sg_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, version))
        set(CURLOPT_USERAGENT, sg_easy_setopt_str(easy, CURLOPT_USERAGENT, configuration.userAgent))
        let idleSeconds = Int((configuration.maxIdleConnectionAge + .nanoseconds(999_999_999)).components.seconds)
        set(CURLOPT_MAXAGE_CONN, sg_easy_setopt_long(easy, CURLOPT_MAXAGE_CONN, max(1, idleSeconds)))
        return failed
    }

    /// Detaches a finished transfer's memory from its handle before the handle waits for reuse:
    /// the buffers and lists it points to are freed with the transfer.
    static func detach(_ easy: UnsafeMutableRawPointer) {
        _ = sg_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, nil)
        _ = sg_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, nil)
        _ = sg_easy_setopt_slist(easy, CURLOPT_RESOLVE, nil)
        _ = sg_easy_setopt_ptr(easy, CURLOPT_POSTFIELDS, nil)
        _ = sg_easy_setopt_ptr(easy, CURLOPT_PRIVATE, nil)
        _ = sg_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, nil)
        _ = sg_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, nil)
        _ = sg_easy_setopt_ptr(easy, CURLOPT_XFERINFODATA, nil)
    }
}

extension CurlTransfer {
    /// Sets the per-request options of the easy handle for `request`; every option a previous
    /// request on the same handle may have set is set again (to its default when unused).
    /// Returns a reason when the request cannot be expressed (bad method, option refused).
    func configure(_ request: HTTPRequest, configuration: HTTPClient.Configuration) -> HTTPClientError? {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var failed: CURLoption?
        func set(_ option: CURLoption, _ code: CURLcode) { if code != CURLE_OK, failed == nil { failed = option } }

        set(CURLOPT_URL, sg_easy_setopt_str(easy, CURLOPT_URL, request.url))
        set(CURLOPT_FORBID_REUSE, sg_easy_setopt_long(easy, CURLOPT_FORBID_REUSE, request.reuseConnection ? 0 : 1))
        set(CURLOPT_PRIVATE, sg_easy_setopt_ptr(easy, CURLOPT_PRIVATE, me))
        set(CURLOPT_ERRORBUFFER, sg_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        set(CURLOPT_WRITEDATA, sg_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me))
        set(CURLOPT_HEADERDATA, sg_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me))
        set(CURLOPT_XFERINFODATA, sg_easy_setopt_ptr(easy, CURLOPT_XFERINFODATA, me))
        // Wait for a connection that may multiplex instead of opening more — only over TLS: ALPN
        // settles multiplexing at the handshake. On plain http:// curl learns it only from the
        // first response, so PIPEWAIT would hold concurrent requests to one host until then.
        let negotiates = request.httpVersion == .negotiated && configuration.prefersHTTP2
        let version = Int(negotiates ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1)
        set(CURLOPT_HTTP_VERSION, sg_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, version))
        let multiplexable = negotiates && Self.isHTTPS(request.url)
        set(CURLOPT_PIPEWAIT, sg_easy_setopt_long(easy, CURLOPT_PIPEWAIT, multiplexable ? 1 : 0))
        // The provider's private CA, or libcurl's built-in bundle again (a recycled handle keeps the last request's).
        set(CURLOPT_CAINFO, sg_easy_setopt_str(easy, CURLOPT_CAINFO, request.caFile ?? CurlHandleDefaults.caInfo))
        // 0 is libcurl's default (300 s).
        let connect = request.timeouts.connect.map(\.curlMilliseconds) ?? 0
        set(CURLOPT_CONNECTTIMEOUT_MS, sg_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, connect))
        if let pin = request.pin {
            resolveList = curl_slist_append(nil, pin.curlEntry)
            set(CURLOPT_RESOLVE, sg_easy_setopt_slist(easy, CURLOPT_RESOLVE, resolveList))
            set(CURLOPT_NOPROXY, sg_easy_setopt_str(easy, CURLOPT_NOPROXY, "*"))
        } else {
            set(CURLOPT_RESOLVE, sg_easy_setopt_slist(easy, CURLOPT_RESOLVE, nil))
            set(CURLOPT_NOPROXY, sg_easy_setopt_str(easy, CURLOPT_NOPROXY, nil))
        }
        if let problem = configureMethod(request, set: set) { return problem }

        // Request headers go to libcurl only; they are never logged (they carry provider keys).
        // A User-Agent among them replaces the configured one (libcurl sends the custom header).
        if let problem = request.headerProblem { return problem }
        var list: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Expect:")
        for field in request.headers {
            list = curl_slist_append(list, field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        headerList = list
        set(CURLOPT_HTTPHEADER, sg_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list))

        if let failed {
            let text = String(cString: curl_easy_strerror(CURLE_BAD_FUNCTION_ARGUMENT))
            return HTTPClientError(kind: .invalidRequest,
                                   detail: "libcurl refused option \(failed.rawValue) (\(text)); check the URL and request fields")
        }
        return nil
    }

    private static func isHTTPS(_ url: String) -> Bool {
        let prefix = "https://".utf8
        return url.utf8.count >= prefix.count && zip(url.utf8, prefix).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    /// The method options. Each branch sets the method last, because `CURLOPT_POSTFIELDS` and
    /// `CURLOPT_NOBODY` change libcurl's method as a side effect.
    private func configureMethod(_ request: HTTPRequest, set: (CURLoption, CURLcode) -> Void) -> HTTPClientError? {
        if let problem = request.methodProblem { return problem }
        let method = request.method.uppercased()
        set(CURLOPT_CUSTOMREQUEST, sg_easy_setopt_str(easy, CURLOPT_CUSTOMREQUEST, nil))
        set(CURLOPT_POSTFIELDS, sg_easy_setopt_ptr(easy, CURLOPT_POSTFIELDS, nil))
        set(CURLOPT_POSTFIELDSIZE_LARGE, sg_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, -1))
        switch method {
        case "GET" where request.body.isEmpty:
            set(CURLOPT_HTTPGET, sg_easy_setopt_long(easy, CURLOPT_HTTPGET, 1))
        case "HEAD":
            set(CURLOPT_HTTPGET, sg_easy_setopt_long(easy, CURLOPT_HTTPGET, 1))
            set(CURLOPT_NOBODY, sg_easy_setopt_long(easy, CURLOPT_NOBODY, 1))
        default:
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, request.body.count), alignment: 1)
            buffer.copyBytes(from: request.body)
            requestBody = buffer
            set(CURLOPT_POSTFIELDSIZE_LARGE, sg_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
            set(CURLOPT_POSTFIELDS, sg_easy_setopt_ptr(easy, CURLOPT_POSTFIELDS, buffer.baseAddress))
            set(CURLOPT_POST, sg_easy_setopt_long(easy, CURLOPT_POST, 1))
            if method != "POST" {
                set(CURLOPT_CUSTOMREQUEST, sg_easy_setopt_str(easy, CURLOPT_CUSTOMREQUEST, method))
            }
        }
        return nil
    }
}
