import CCurl

extension CurlTransfer {
    /// Sets every option of the easy handle for `request`. Returns a reason when the request
    /// cannot be expressed (bad method, option refused).
    func configure(_ request: HTTPRequest, configuration: HTTPClient.Configuration) -> HTTPClientError? {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var failed: CURLoption?
        func set(_ option: CURLoption, _ code: CURLcode) { if code != CURLE_OK, failed == nil { failed = option } }

        set(CURLOPT_URL, sg_easy_setopt_str(easy, CURLOPT_URL, request.url))
        set(CURLOPT_PROTOCOLS_STR, sg_easy_setopt_str(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(CURLOPT_NOSIGNAL, sg_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        set(CURLOPT_PRIVATE, sg_easy_setopt_ptr(easy, CURLOPT_PRIVATE, me))
        set(CURLOPT_ERRORBUFFER, sg_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        set(CURLOPT_WRITEFUNCTION, sg_easy_setopt_datafn(easy, CURLOPT_WRITEFUNCTION, curlWriteCallback))
        set(CURLOPT_WRITEDATA, sg_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me))
        set(CURLOPT_HEADERFUNCTION, sg_easy_setopt_datafn(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback))
        set(CURLOPT_HEADERDATA, sg_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me))
        set(CURLOPT_XFERINFOFUNCTION, sg_easy_setopt_xferinfofn(easy, CURLOPT_XFERINFOFUNCTION, curlProgressCallback))
        set(CURLOPT_XFERINFODATA, sg_easy_setopt_ptr(easy, CURLOPT_XFERINFODATA, me))
        set(CURLOPT_NOPROGRESS, sg_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 0))
        // Proxy CONNECT responses are not the upstream's head.
        set(CURLOPT_SUPPRESS_CONNECT_HEADERS, sg_easy_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1))
        set(CURLOPT_TCP_KEEPALIVE, sg_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1))
        set(CURLOPT_TCP_NODELAY, sg_easy_setopt_long(easy, CURLOPT_TCP_NODELAY, 1))
        // HTTP/2 over TLS via ALPN; wait for a connection that may multiplex instead of opening more.
        let version = configuration.prefersHTTP2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1
        set(CURLOPT_HTTP_VERSION, sg_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, version))
        // Only over TLS: ALPN settles multiplexing at the handshake. On plain http:// curl learns it only
        // from the first response, so PIPEWAIT would hold concurrent requests to one host until then.
        let multiplexable = configuration.prefersHTTP2 && request.url.lowercased().hasPrefix("https://")
        set(CURLOPT_PIPEWAIT, sg_easy_setopt_long(easy, CURLOPT_PIPEWAIT, multiplexable ? 1 : 0))
        if let connect = request.timeouts.connect {
            set(CURLOPT_CONNECTTIMEOUT_MS, sg_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, connect.curlMilliseconds))
        }
        if request.headers["User-Agent"] == nil {
            set(CURLOPT_USERAGENT, sg_easy_setopt_str(easy, CURLOPT_USERAGENT, configuration.userAgent))
        }
        if let pin = request.pin {
            resolveList = curl_slist_append(nil, pin.curlEntry)
            set(CURLOPT_RESOLVE, sg_easy_setopt_slist(easy, CURLOPT_RESOLVE, resolveList))
            set(CURLOPT_NOPROXY, sg_easy_setopt_str(easy, CURLOPT_NOPROXY, "*"))
        }
        if let problem = configureMethod(request, set: set) { return problem }

        // Request headers go to libcurl only; they are never logged (they carry provider keys).
        var list: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Expect:")
        for field in request.headers {
            if field.name.utf8.contains(where: { $0 == 0x3A || $0 == 0x0D || $0 == 0x0A || $0 == 0 }) || field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
                curl_slist_free_all(list)
                return HTTPClientError(kind: .invalidRequest,
                                       detail: "header field \"\(field.name)\" contains a colon or line break in its name or a line break in its value; remove it")
            }
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

    private func configureMethod(_ request: HTTPRequest, set: (CURLoption, CURLcode) -> Void) -> HTTPClientError? {
        let method = request.method.uppercased()
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return HTTPClientError(kind: .invalidRequest, detail: "HTTP method \"\(request.method)\" is not a token; use GET, POST, ...")
        }
        switch method {
        case "GET" where request.body.isEmpty:
            set(CURLOPT_HTTPGET, sg_easy_setopt_long(easy, CURLOPT_HTTPGET, 1))
        case "HEAD":
            set(CURLOPT_NOBODY, sg_easy_setopt_long(easy, CURLOPT_NOBODY, 1))
        default:
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, request.body.count), alignment: 1)
            buffer.copyBytes(from: request.body)
            requestBody = buffer
            set(CURLOPT_POST, sg_easy_setopt_long(easy, CURLOPT_POST, 1))
            set(CURLOPT_POSTFIELDSIZE_LARGE, sg_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
            set(CURLOPT_POSTFIELDS, sg_easy_setopt_ptr(easy, CURLOPT_POSTFIELDS, buffer.baseAddress))
            if method != "POST" {
                set(CURLOPT_CUSTOMREQUEST, sg_easy_setopt_str(easy, CURLOPT_CUSTOMREQUEST, method))
            }
        }
        return nil
    }
}
