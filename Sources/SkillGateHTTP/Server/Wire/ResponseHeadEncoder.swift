/// Writes HTTP/1.1 response heads and chunk framing straight into a connection's output bytes (no format strings, no
/// intermediate strings: the reply head is on every request's path).
enum ResponseHeadEncoder {
    /// How the reply's body is framed on the wire.
    enum Framing {
        /// `Content-Length: n` (also the length a HEAD reply announces).
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
        /// No framing field: no body (1xx, 204, 304), or a handler's own `Content-Length` on a stream, or a body that
        /// ends when the connection closes (an HTTP/1.0 stream).
        case none
    }

    /// Appends the status line, `headers` (minus framing fields, which `framing` decides, and fields whose name or
    /// value holds CR or LF, which would inject lines), `Date` unless the handler set one, `framing`, the connection
    /// field, and the empty line.
    static func appendHead(to output: inout [UInt8], status: Int, headers: HTTPHeaders, framing: Framing,
                           keepHandlerContentLength: Bool, connection: ConnectionField, date: UnsafeRawBufferPointer) {
        output.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(status, to: &output)
        output.append(0x20)
        output.append(contentsOf: reasonPhrase(status).utf8)
        output.append(contentsOf: crlf)
        var hasDate = false
        for field in headers {
            if isFramingField(field.name, keepContentLength: keepHandlerContentLength) { continue }
            if field.name.utf8.count == 10 && HTTPHeaders.sameName(field.name, "connection") { continue }
            if field.name.utf8.count == 4 && HTTPHeaders.sameName(field.name, "date") { hasDate = true }
            guard isSafe(field.name), isSafe(field.value) else { continue }
            output.append(contentsOf: field.name.utf8)
            output.append(0x3A)
            output.append(0x20)
            output.append(contentsOf: field.value.utf8)
            output.append(contentsOf: crlf)
        }
        if !hasDate {
            output.append(contentsOf: "Date: ".utf8)
            output.append(contentsOf: date)
            output.append(contentsOf: crlf)
        }
        switch framing {
        case .length(let length):
            output.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(length, to: &output)
            output.append(contentsOf: crlf)
        case .chunked:
            output.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
        case .none:
            break
        }
        switch connection {
        case .close: output.append(contentsOf: "Connection: close\r\n".utf8)
        case .keepAlive: output.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        case .unsaid: break
        }
        output.append(contentsOf: crlf)
    }

    /// The `Connection` field a reply carries.
    enum ConnectionField {
        /// The connection closes after this reply.
        case close
        /// An HTTP/1.0 client asked to keep the connection, and it is kept.
        case keepAlive
        /// HTTP/1.1's default (the connection stays open).
        case unsaid
    }

    /// Appends one chunk (`size CRLF data CRLF`).
    static func appendChunk(_ data: [UInt8], to output: inout [UInt8]) {
        appendHex(data.count, to: &output)
        output.append(contentsOf: crlf)
        output.append(contentsOf: data)
        output.append(contentsOf: crlf)
    }

    /// The last chunk of a chunked body, with no trailer fields.
    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// `Transfer-Encoding` is always the server's to set; `Content-Length` too unless `keepContentLength` (a stream, or
    /// a HEAD reply, whose length the server does not measure).
    static func isFramingField(_ name: String, keepContentLength: Bool) -> Bool {
        // `sameName` compares without lowercasing a copy (a 17-byte name such as `x-skillgate-model` is a heap string).
        switch name.utf8.count {
        case 14: return !keepContentLength && HTTPHeaders.sameName(name, "content-length")
        case 17: return HTTPHeaders.sameName(name, "transfer-encoding")
        default: return false
        }
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 402: return "Payment Required"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 413: return "Payload Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 417: return "Expectation Failed"
        case 422: return "Unprocessable Content"
        case 425: return "Too Early"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 499: return "Client Closed Request"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default:
            switch status {
            case ..<200: return "Informational"
            case ..<300: return "Success"
            case ..<400: return "Redirection"
            case ..<500: return "Client Error"
            default: return "Server Error"
            }
        }
    }

    private static let crlf: [UInt8] = [0x0D, 0x0A]

    private static func isSafe(_ text: String) -> Bool {
        !text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A })
    }

    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        guard value > 0 else { output.append(0x30); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[19 - count] = 0x30 + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(20 - count)...]))
        }
    }

    private static func appendHex(_ value: Int, to output: inout [UInt8]) {
        let hexDigits: StaticString = "0123456789abcdef"
        var shift = 60
        while shift > 0 && (value >> shift) & 0xF == 0 { shift -= 4 }
        while shift >= 0 {
            output.append(hexDigits.utf8Start[(value >> shift) & 0xF])
            shift -= 4
        }
    }
}
