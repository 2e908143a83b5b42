import SkillGateCore

/// A request head read off the wire: its request line and header fields, and what they say about the connection.
struct ParsedRequestHead {
    var method: String
    /// The target's path (not percent-decoded), `/` when the target had none, `*` for `OPTIONS *`.
    var path: String
    var query: String?
    var headers: HTTPHeaders
    /// The `y` of `HTTP/1.y`: 0 or 1 (a later minor version counts as 1).
    var minorVersion: Int
    /// Whether the client lets the connection stay open after this request (HTTP/1.1 unless `Connection: close`;
    /// HTTP/1.0 only with `Connection: keep-alive`).
    var keepAlive: Bool
    /// The `Expect` field's value, if any.
    var expect: String?

    var isHead: Bool { method == "HEAD" }
}

/// Parses an HTTP/1.1 request head (RFC 9112 §3, §5) from bytes: the request line, then field lines up to an empty
/// line. Strict where parsers in a chain could disagree (no whitespace before a field's colon, no control bytes, one
/// SP between the request line's parts, no obsolete line folding: decision 0170), lenient where it is harmless (a bare
/// LF ends a line, empty lines before the request line are skipped).
enum RequestHeadParser {
    /// Why a head is refused: the status and a message that says what to fix.
    struct Refusal: Error, Equatable {
        var status: Int
        var message: String
    }

    /// Methods the server takes; any other token is answered 501.
    static let supportedMethods: [String] = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"]

    static let controlCharacterMessage = "A request header contains a control character; remove raw control bytes from header names and values."

    /// How many bytes at the start of `bytes` are CR or LF: blank lines a client may send before a request line
    /// (after a previous request's body, RFC 9112 §2.2). They are dropped.
    static func blankLinePrefix(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
        return index - start
    }

    /// Parses the head in `bytes` (from a request line to, and without, the empty line that ends it).
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<ParsedRequestHead, Refusal> {
        var lines = HTTP1Head.Lines(bytes)
        guard let requestLine = lines.next() else { return .failure(malformedRequestLine) }
        let start: ParsedRequestHead
        switch parseRequestLine(UnsafeRawBufferPointer(rebasing: bytes[requestLine])) {
        case .success(let parsed): start = parsed
        case .failure(let refusal): return .failure(refusal)
        }
        var head = start
        head.headers.reserveCapacity(8)
        var connectionTokens: (close: Bool, keepAlive: Bool) = (false, false)
        while let line = lines.next() {
            let field = UnsafeRawBufferPointer(rebasing: bytes[line])
            // Obsolete line folding (RFC 9112 §5.2) is refused, not joined: a proxy in front that reads a continuation
            // line as a field of its own would frame the request differently (decision 0170).
            if field[0] == 0x20 || field[0] == 0x09 { return .failure(foldedField) }
            guard let colon = field.firstIndex(of: 0x3A), colon > 0 else { return .failure(malformedField) }
            for index in 0..<colon where !isTokenByte(field[index]) {
                let byte = field[index]
                return .failure((byte < 0x20 && byte != 0x09) || byte == 0x7F ? Refusal(status: 400, message: controlCharacterMessage) : malformedField)
            }
            guard let value = fieldValue(field, from: colon + 1) else { return .failure(Refusal(status: 400, message: controlCharacterMessage)) }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: field[0..<colon]), as: UTF8.self)
            switch colon {
            case 10 where HTTPHeaders.sameName(name, "connection"):
                let tokens = HTTP1Head.connectionTokens(value)
                connectionTokens = (connectionTokens.close || tokens.close, connectionTokens.keepAlive || tokens.keepAlive)
            case 6 where HTTPHeaders.sameName(name, "expect"):
                head.expect = value
            default:
                break
            }
            head.headers.add(name, value)
        }
        head.keepAlive = head.minorVersion >= 1 ? !connectionTokens.close : (connectionTokens.keepAlive && !connectionTokens.close)
        return .success(head)
    }

    // MARK: Request line

    private static let malformedRequestLine = Refusal(
        status: 400, message: "The request line is malformed; send `METHOD /path HTTP/1.1` with single spaces and an origin-form or absolute target.")
    private static let malformedField = Refusal(
        status: 400, message: "A header line is malformed; send `Name: value` with a token name and no space before the colon.")
    private static let foldedField = Refusal(
        status: 400,
        message: "A header line starts with a space or tab (obsolete line folding, RFC 9112 §5.2), which is not accepted; send each header field on one line.")

    private static func parseRequestLine(_ line: UnsafeRawBufferPointer) -> Result<ParsedRequestHead, Refusal> {
        guard let firstSpace = line.firstIndex(of: 0x20), firstSpace > 0,
              let secondSpace = line[(firstSpace + 1)...].firstIndex(of: 0x20), secondSpace > firstSpace + 1 else {
            return .failure(malformedRequestLine)
        }
        let version = UnsafeRawBufferPointer(rebasing: line[(secondSpace + 1)...])
        guard !version.contains(0x20) else { return .failure(malformedRequestLine) }
        guard version.count == 8, version.starts(with: "HTTP/".utf8), version[6] == 0x2E, (0x30...0x39).contains(version[7]) else {
            return .failure(Refusal(status: 400, message: "Only HTTP/1.0 and HTTP/1.1 are served here; send the request as HTTP/1.1."))
        }
        switch version[5] {
        case 0x31:
            break
        case 0x32, 0x33:
            // HTTP/2 and HTTP/3 are other wire protocols, spoken here only by a proxy in front (RFC 9110 §15.6.6).
            return .failure(Refusal(status: 505, message: "HTTP/2 and HTTP/3 are not served on this port; send the request as HTTP/1.1 (or put a proxy that speaks them in front)."))
        default:
            return .failure(Refusal(status: 400, message: "Only HTTP/1.0 and HTTP/1.1 are served here; send the request as HTTP/1.1."))
        }
        for index in 0..<firstSpace where !isTokenByte(line[index]) { return .failure(malformedRequestLine) }
        let method = methodName(UnsafeRawBufferPointer(rebasing: line[0..<firstSpace]))
        let target = UnsafeRawBufferPointer(rebasing: line[(firstSpace + 1)..<secondSpace])
        for byte in target where byte <= 0x20 || byte == 0x7F { return .failure(malformedRequestLine) }
        guard let (path, query) = splitTarget(target) else { return .failure(malformedRequestLine) }
        guard supportedMethods.contains(method) else {
            return .failure(Refusal(status: 501, message: "The request method is not supported; use GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS."))
        }
        // A later HTTP/1.x is answered as HTTP/1.1, the highest minor version served (RFC 9110 §6.2).
        return .success(ParsedRequestHead(method: method, path: path, query: query, headers: HTTPHeaders(),
                                          minorVersion: min(1, Int(version[7] - 0x30)), keepAlive: true, expect: nil))
    }

    /// The method's name; the common ones without decoding (each is a small string literal).
    private static func methodName(_ bytes: UnsafeRawBufferPointer) -> String {
        switch bytes.count {
        case 3 where bytes.elementsEqual("GET".utf8): return "GET"
        case 4 where bytes.elementsEqual("POST".utf8): return "POST"
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Path and query of an origin-form (`/p?q`), absolute-form (`http://host/p?q`) or asterisk-form (`*`) target; the
    /// fragment, which a client should not send, is dropped.
    private static func splitTarget(_ target: UnsafeRawBufferPointer) -> (String, String?)? {
        var start = 0
        if target.count == 1 && target[0] == 0x2A { return ("*", nil) }
        if target[0] != 0x2F {
            // absolute-form: scheme "://" authority, then the path (or none).
            guard let schemeEnd = findSubsequence(target, "://".utf8), schemeEnd > 0 else { return nil }
            let authorityStart = schemeEnd + 3
            start = target[authorityStart...].firstIndex(where: { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 }) ?? target.count
        }
        var end = target.count
        if let hash = target[start...].firstIndex(of: 0x23) { end = hash }
        let question = target[start..<end].firstIndex(of: 0x3F)
        let pathEnd = question ?? end
        let path = pathEnd > start ? String(decoding: UnsafeRawBufferPointer(rebasing: target[start..<pathEnd]), as: UTF8.self) : "/"
        let query = question.map { String(decoding: UnsafeRawBufferPointer(rebasing: target[($0 + 1)..<end]), as: UTF8.self) }
        return (path.first == "/" || path == "*" ? path : "/" + path, query)
    }

    private static func findSubsequence(_ bytes: UnsafeRawBufferPointer, _ needle: String.UTF8View) -> Int? {
        let pattern = Array(needle)
        guard bytes.count >= pattern.count else { return nil }
        for index in 0...(bytes.count - pattern.count) where bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
        return nil
    }

    // MARK: Fields

    /// The value after `from`, without surrounding spaces and tabs; nil when it holds a control byte (other than tab).
    private static func fieldValue(_ field: UnsafeRawBufferPointer, from: Int) -> String? {
        var start = from, end = field.count
        while start < end && (field[start] == 0x20 || field[start] == 0x09) { start += 1 }
        while end > start && (field[end - 1] == 0x20 || field[end - 1] == 0x09) { end -= 1 }
        for index in start..<end {
            let byte = field[index]
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F { return nil }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: field[start..<end]), as: UTF8.self)
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
        default: return false
        }
    }
}
