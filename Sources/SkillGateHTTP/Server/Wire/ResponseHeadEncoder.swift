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
    /// value holds a control character: CR or LF would inject lines), `extraFields` (lines already written, as
    /// `WrittenFields.bytes`: the server's `replyFields`), `Date` unless the handler set one, `framing`, the connection
    /// field, and the empty line.
    ///
    /// The head is written into a scratch buffer sized from the fields, over each field's contiguous bytes, and appended
    /// with one copy: writing it field by field through `Array.append` and `String.UTF8View` cost ~14k instructions a
    /// reply for the gateway's eight fields, this ~3k (decision 0059).
    static func appendHead(to output: inout [UInt8], status: Int, headers: HTTPHeaders, framing: Framing,
                           keepHandlerContentLength: Bool, connection: ConnectionField, date: UnsafeRawBufferPointer,
                           extraFields: [UInt8] = []) {
        // Status line (≤ 9 + 20 + 1 + 31 + 2), Date (6 + date + 2), framing (≤ 16 + 20 + 2 or 28), connection (≤ 24)
        // and the empty line, then each field's name, value, ": " and CRLF.
        var capacity = 160 + date.count + extraFields.count
        for field in headers { capacity += field.name.utf8.count + field.value.utf8.count + 4 }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            var head = HeadWriter(scratch)
            head.writeStatusLine(status)
            var hasDate = false
            for field in headers { head.writeField(field, keepHandlerContentLength: keepHandlerContentLength, sawDate: &hasDate) }
            if !extraFields.isEmpty { extraFields.withUnsafeBufferPointer { head.write($0) } }
            head.writeEnd(hasDate: hasDate, date: date, framing: framing, connection: connection)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<head.count]))
        }
    }

    /// A reply head's fields written ahead of the reply (a stream's, while its handler waits for what it will stream),
    /// exactly as `appendHead` writes them, with what the server reads from them.
    struct WrittenFields: Sendable {
        /// The fields they were written from.
        let headers: HTTPHeaders
        /// Each field `appendHead` keeps, as `name: value` CRLF.
        let bytes: [UInt8]
        /// The handler set its own `Date`.
        let hasDate: Bool
        /// The handler set `Content-Length` (a stream whose length it measured).
        let hasContentLength: Bool
        /// The handler's `Connection` field asks to close the connection after the reply.
        let asksClose: Bool

        /// Writes the fields of `headers` as `appendHead` would, keeping a handler's `Content-Length` (a stream's).
        init(_ headers: HTTPHeaders) {
            var capacity = 0
            for field in headers { capacity += field.name.utf8.count + field.value.utf8.count + 4 }
            var hasDate = false
            bytes = [UInt8](unsafeUninitializedCapacity: max(capacity, 1)) { buffer, count in
                var head = HeadWriter(buffer)
                for field in headers { head.writeField(field, keepHandlerContentLength: true, sawDate: &hasDate) }
                count = head.count
            }
            self.headers = headers
            self.hasDate = hasDate
            hasContentLength = headers["Content-Length"] != nil
            asksClose = ResponseHeadEncoder.asksClose(headers)
        }
    }

    /// Whether a handler's `Connection` field asks to close the connection after its reply.
    static func asksClose(_ headers: HTTPHeaders) -> Bool {
        headers["Connection"].map { HTTP1Head.connectionTokens($0).close } ?? false
    }

    /// `appendHead` with fields written ahead (`WrittenFields`, which kept the handler's `Content-Length`).
    static func appendHead(to output: inout [UInt8], status: Int, written: WrittenFields, framing: Framing, connection: ConnectionField,
                           date: UnsafeRawBufferPointer, extraFields: [UInt8] = []) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 160 + date.count + written.bytes.count + extraFields.count) { scratch in
            var head = HeadWriter(scratch)
            head.writeStatusLine(status)
            written.bytes.withUnsafeBufferPointer { head.write($0) }
            if !extraFields.isEmpty { extraFields.withUnsafeBufferPointer { head.write($0) } }
            head.writeEnd(hasDate: written.hasDate, date: date, framing: framing, connection: connection)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<head.count]))
        }
    }

    /// Writes a head into a buffer its caller sized for it.
    private struct HeadWriter {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

        mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            (buffer.baseAddress! + count).update(from: source, count: bytes.count)
            count += bytes.count
        }

        mutating func write(_ text: StaticString) {
            write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        mutating func write(_ text: String) {
            var text = text
            text.withUTF8 { write($0) }
        }

        mutating func writeDecimal(_ value: Int) {
            count += ResponseHeadEncoder.writeDecimal(value, to: buffer.baseAddress! + count)
        }

        /// `HTTP/1.1 <status> <reason>` CRLF.
        mutating func writeStatusLine(_ status: Int) {
            write("HTTP/1.1 ")
            writeDecimal(status)
            write(" ")
            write(reasonPhrase(status))
            write("\r\n")
        }

        /// After the handler's fields: `Date` unless it set one, the framing, the connection field and the empty line.
        mutating func writeEnd(hasDate: Bool, date: UnsafeRawBufferPointer, framing: Framing, connection: ConnectionField) {
            if !hasDate {
                write("Date: ")
                write(UnsafeBufferPointer(start: date.baseAddress?.assumingMemoryBound(to: UInt8.self), count: date.count))
                write("\r\n")
            }
            switch framing {
            case .length(let length):
                write("Content-Length: ")
                writeDecimal(length)
                write("\r\n")
            case .chunked:
                write("Transfer-Encoding: chunked\r\n")
            case .none:
                break
            }
            switch connection {
            case .close: write("Connection: close\r\n")
            case .keepAlive: write("Connection: keep-alive\r\n")
            case .unsaid: break
            }
            write("\r\n")
        }

        /// Writes `field` unless it is a framing or connection field, or holds a control character (`isSafe`). Notes a handler's own `Date`.
        mutating func writeField(_ field: HTTPHeaders.Field, keepHandlerContentLength: Bool, sawDate: inout Bool) {
            var name = field.name, value = field.value
            name.withUTF8 { name in
                value.withUTF8 { value in
                    writeField(name: name, value: value, keepHandlerContentLength: keepHandlerContentLength, sawDate: &sawDate)
                }
            }
        }

        private mutating func writeField(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>,
                                         keepHandlerContentLength: Bool, sawDate: inout Bool) {
            if ResponseHeadEncoder.isFramingField(name, keepContentLength: keepHandlerContentLength) { return }
            if HTTPHeaders.sameName(name, "connection") { return }
            if HTTPHeaders.sameName(name, "date") { sawDate = true }
            guard ResponseHeadEncoder.isSafe(name), ResponseHeadEncoder.isSafe(value) else { return }
            write(name)
            write(": ")
            write(value)
            write("\r\n")
        }
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
        var name = name
        return name.withUTF8 { isFramingField($0, keepContentLength: keepContentLength) }
    }

    /// `isFramingField` over a name's bytes.
    static func isFramingField(_ name: UnsafeBufferPointer<UInt8>, keepContentLength: Bool) -> Bool {
        switch name.count {
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

    /// No control character but HTAB in `bytes`: CR or LF would inject lines, and any other (NUL, ESC, DEL) makes
    /// clients refuse the whole reply (RFC 9110 §5.5 allows visible characters, spaces and tabs).
    static func isSafe(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where (byte < 0x20 && byte != 0x09) || byte == 0x7F { return false }
        return true
    }

    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            let count = writeDecimal(value, to: digits.baseAddress!)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<count]))
        }
    }

    /// Writes `value` (not negative) in decimal at `out`, which has room for 20 digits; returns how many it wrote.
    static func writeDecimal(_ value: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard value > 0 else { out.pointee = 0x30; return 1 }
        var count = 0
        var rest = value
        while rest > 0 { rest /= 10; count += 1 }
        rest = value
        for index in stride(from: count - 1, through: 0, by: -1) {
            out[index] = 0x30 + UInt8(rest % 10)
            rest /= 10
        }
        return count
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
