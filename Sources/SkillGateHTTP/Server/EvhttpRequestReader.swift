import CEvent

/// Copies a fully read `evhttp_request` into a Sendable `HTTPServerRequest` (loop thread only).
enum EvhttpRequestReader {
    /// The request's head, or nil when a header field contains a control character (evhttp lets those through).
    static func head(_ req: OpaquePointer, connection: OpaquePointer) -> HTTPRequestHead? {
        var path = "/"
        var query: String?
        if let uri = evhttp_request_get_evhttp_uri(req) {
            if let p = evhttp_uri_get_path(uri), p.pointee != 0 { path = String(cString: p) }
            if let q = evhttp_uri_get_query(uri) { query = String(cString: q) }
        }
        var headers = HTTPHeaders()
        headers.reserveCapacity(8)
        if let list = evhttp_request_get_input_headers(req) {
            var item = sg_ev_keyvalq_first(list)
            while let field = item {
                guard isClean(field.pointee.key), isClean(field.pointee.value) else { return nil }
                headers.add(String(cString: field.pointee.key), String(cString: field.pointee.value))
                item = sg_ev_keyval_next(field)
            }
        }
        return HTTPRequestHead(method: methodName(evhttp_request_get_command(req)), path: path, query: query,
                               headers: headers, remoteAddress: peer(of: connection))
    }

    /// The request of `head` with the body evhttp read for `req` (copied out of its buffer).
    static func request(_ head: HTTPRequestHead, body req: OpaquePointer) -> HTTPServerRequest {
        HTTPServerRequest(method: head.method, path: head.path, query: head.query, headers: head.headers,
                          body: body(of: req), remoteAddress: head.remoteAddress, admission: head.admission)
    }

    /// No control characters other than horizontal tab (RFC 9110 field-value / token rules).
    private static func isClean(_ text: UnsafeMutablePointer<CChar>) -> Bool {
        var p = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        while p.pointee != 0 {
            let byte = p.pointee
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F { return false }
            p += 1
        }
        return true
    }

    /// The body, moved out of evhttp's buffer: draining it frees the buffer's chains now instead of with the request,
    /// which a held stream keeps for its whole life (decision 0036).
    private static func body(of req: OpaquePointer) -> [UInt8] {
        guard let input = evhttp_request_get_input_buffer(req) else { return [] }
        let length = evbuffer_get_length(input)
        guard length > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            count = max(0, Int(evbuffer_remove(input, buffer.baseAddress, length)))
        }
    }

    private static func peer(of connection: OpaquePointer) -> String {
        var address: UnsafeMutablePointer<CChar>?
        var port: UInt16 = 0
        evhttp_connection_get_peer(connection, &address, &port)
        guard let address else { return "" }
        return "\(String(cString: address)):\(port)"
    }

    static func methodName(_ command: evhttp_cmd_type) -> String {
        switch command {
        case EVHTTP_REQ_GET: return "GET"
        case EVHTTP_REQ_POST: return "POST"
        case EVHTTP_REQ_HEAD: return "HEAD"
        case EVHTTP_REQ_PUT: return "PUT"
        case EVHTTP_REQ_DELETE: return "DELETE"
        case EVHTTP_REQ_OPTIONS: return "OPTIONS"
        case EVHTTP_REQ_PATCH: return "PATCH"
        case EVHTTP_REQ_TRACE: return "TRACE"
        case EVHTTP_REQ_CONNECT: return "CONNECT"
        default: return "UNKNOWN"
        }
    }
}
