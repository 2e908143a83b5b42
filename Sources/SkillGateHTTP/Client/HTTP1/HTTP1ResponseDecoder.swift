import Glibc

/// Decodes one HTTP/1.x response from the bytes of a connection as they arrive (RFC 9112): the status line and
/// header fields, then the body framed by `Transfer-Encoding: chunked`, `Content-Length` or the connection's close.
/// Interim 1xx responses are skipped. Nothing is copied: body steps name ranges of the caller's input.
///
/// Pull-based: the caller hands in everything it holds unread and calls `next` until it asks for more. A `.body`
/// step does not advance the read position; the caller calls `bodyDelivered` once it handed the bytes on, or keeps
/// them for later (a paused consumer). The decoder sees untrusted bytes; every malformed or oversized form is a
/// `HTTP1DecodeError`, never a crash.
struct HTTP1ResponseDecoder {
    /// What the decoder found next in the input.
    enum Step: Equatable {
        /// Everything up to the read position is used; the rest is an incomplete element: read more.
        case needMore
        /// The final response head.
        case head(status: Int, headers: HTTPHeaders)
        /// Body bytes at these offsets of the input.
        case body(Range<Int>)
        /// The response is complete; bytes after the read position belong to no response.
        case end
    }

    private enum State: Equatable {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case untilClose
        case complete
    }

    /// Largest response head (status line and fields) accepted; libcurl's own limit is of the same order.
    static let maxHeadBytes = 256 * 1024
    /// Longest chunk-size line (with extensions) or trailer line accepted.
    static let maxLineBytes = 16 * 1024

    private var state = State.head
    /// False for the answer to a HEAD request: its head announces a body that is never sent.
    private let bodyExpected: Bool
    /// Whether the connection may carry another request after this response (HTTP/1.1 without `Connection: close`,
    /// a body whose end is framed). Settled when the head is decoded.
    private(set) var keepsConnection = false
    /// Whether the final head was decoded.
    var hasHead: Bool { state != .head }
    /// Whether the whole response was decoded.
    var isComplete: Bool { state == .complete }
    /// Whether the body ends only when the upstream closes the connection.
    var endsAtClose: Bool { state == .untilClose }

    init(bodyExpected: Bool) {
        self.bodyExpected = bodyExpected
    }

    /// The next element of `input` at `offset`; advances `offset` past what it consumed (except for `.body`).
    mutating func next(_ input: UnsafeRawBufferPointer, at offset: inout Int) throws(HTTP1DecodeError) -> Step {
        while true {
            switch state {
            case .head:
                guard let head = try decodeHead(input, at: &offset) else { return .needMore }
                if let head { return head }
            case .fixed(let remaining):
                if remaining == 0 { state = .complete; return .end }
                guard offset < input.count else { return .needMore }
                return .body(offset..<(offset + min(remaining, input.count - offset)))
            case .chunkData(let remaining):
                guard offset < input.count else { return .needMore }
                return .body(offset..<(offset + min(remaining, input.count - offset)))
            case .untilClose:
                guard offset < input.count else { return .needMore }
                return .body(offset..<input.count)
            case .chunkSize:
                guard let line = try takeLine(input, at: &offset) else { return .needMore }
                let size = try Self.chunkSize(input, line)
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkDataEnd:
                guard offset < input.count else { return .needMore }
                if input[offset] == 0x0A {
                    offset += 1
                } else if input[offset] == 0x0D {
                    guard offset + 1 < input.count else { return .needMore }
                    guard input[offset + 1] == 0x0A else { throw .malformed("a chunk's data is not followed by CRLF") }
                    offset += 2
                } else {
                    throw .malformed("a chunk's data is longer than its size line says")
                }
                state = .chunkSize
            case .trailers:
                guard let line = try takeLine(input, at: &offset) else { return .needMore }
                if line.isEmpty { state = .complete; return .end }
            case .complete:
                return .end
            }
        }
    }

    /// `count` bytes of the last `.body` step were handed on: moves past them.
    mutating func bodyDelivered(_ count: Int, at offset: inout Int) {
        offset += count
        switch state {
        case .fixed(let remaining): state = .fixed(remaining: remaining - count)
        case .chunkData(let remaining): state = remaining == count ? .chunkDataEnd : .chunkData(remaining: remaining - count)
        default: break
        }
    }

    /// The upstream closed the connection: whether that completes the response (a body framed by the close).
    mutating func finishAtClose() -> Bool {
        guard state == .untilClose || state == .complete else { return false }
        state = .complete
        return true
    }

    // MARK: head

    /// Decodes a head at `offset`. nil: incomplete. `.some(nil)`: an interim (1xx) head was skipped.
    private mutating func decodeHead(_ input: UnsafeRawBufferPointer, at offset: inout Int) throws(HTTP1DecodeError) -> Step?? {
        guard let end = HTTP1Head.end(of: input, from: offset) else {
            if input.count - offset > Self.maxHeadBytes { throw .tooLarge("the response head is larger than \(Self.maxHeadBytes / 1024) KiB") }
            return nil
        }
        if end - offset > Self.maxHeadBytes { throw .tooLarge("the response head is larger than \(Self.maxHeadBytes / 1024) KiB") }
        var lines = HTTP1Head.Lines(input, from: offset, to: end)
        guard let statusLine = lines.next() else { throw .malformed("the response has no status line") }
        let (minorVersion, status) = try Self.statusLine(input, statusLine)
        var headers = HTTPHeaders()
        headers.reserveCapacity(12)
        var framing = Framing()
        while let line = lines.next() {
            if input[line.lowerBound] == 0x20 || input[line.lowerBound] == 0x09 {
                throw .malformed("the response head folds a field over several lines (obsolete line folding)")
            }
            guard let colon = HTTP1Head.firstIndex(of: 0x3A, in: input, line) else {
                throw .malformed("a response header line has no colon")
            }
            guard colon > line.lowerBound else { throw .malformed("a response header line has an empty name") }
            var valueStart = colon + 1
            var valueEnd = line.upperBound
            while valueStart < valueEnd, input[valueStart] == 0x20 || input[valueStart] == 0x09 { valueStart += 1 }
            while valueEnd > valueStart, input[valueEnd - 1] == 0x20 || input[valueEnd - 1] == 0x09 { valueEnd -= 1 }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: input[line.lowerBound..<colon]), as: UTF8.self)
            let value = String(decoding: UnsafeRawBufferPointer(rebasing: input[valueStart..<valueEnd]), as: UTF8.self)
            try framing.note(name: name, value: value)
            headers.add(name, value)
        }
        offset = end
        if status < 200 {
            guard status != 101 else { throw .malformed("the upstream switched protocols (101) on a request that did not ask to") }
            return .some(nil)   // 100 Continue, 103 Early Hints: the final head follows
        }
        let persistent = minorVersion >= 1 ? !framing.connectionClose : framing.connectionKeepAlive
        if !bodyExpected || status == 204 || status == 304 {
            state = .complete
            keepsConnection = persistent
        } else if let chunked = framing.chunked {
            // A Transfer-Encoding that does not end in chunked is delimited by the close (RFC 9112 6.3).
            state = chunked ? .chunkSize : .untilClose
            keepsConnection = chunked && persistent && framing.contentLength == nil
        } else if let length = framing.contentLength {
            state = .fixed(remaining: length)
            keepsConnection = persistent
        } else {
            state = .untilClose
            keepsConnection = false
        }
        return .head(status: status, headers: headers)
    }

    /// The framing fields of a head.
    private struct Framing {
        var contentLength: Int?
        /// nil: no Transfer-Encoding; else whether its last coding is chunked.
        var chunked: Bool?
        var connectionClose = false
        var connectionKeepAlive = false

        mutating func note(name: String, value: String) throws(HTTP1DecodeError) {
            if HTTPHeaders.sameName(name, "content-length") {
                // Several equal values (or a list of equal values) are one length; differing ones are an attack or a bug.
                for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let digits = part.utf8.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
                    guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                        throw .malformed("the response's Content-Length \"\(value.prefix(40))\" is not a number")
                    }
                    let length = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                    if let contentLength, contentLength != length {
                        throw .malformed("the response carries conflicting Content-Length values")
                    }
                    contentLength = length
                }
            } else if HTTPHeaders.sameName(name, "transfer-encoding") {
                let last = value.split(separator: ",").last.map { $0.trimmingSpaces.lowercased() } ?? ""
                chunked = last == "chunked"
            } else if HTTPHeaders.sameName(name, "connection") {
                let tokens = HTTP1Head.connectionTokens(value)
                connectionClose = connectionClose || tokens.close
                connectionKeepAlive = connectionKeepAlive || tokens.keepAlive
            }
        }
    }

    /// `HTTP/1.x SP 3DIGIT [SP reason]`: the minor version and the status.
    private static func statusLine(_ input: UnsafeRawBufferPointer, _ line: Range<Int>) throws(HTTP1DecodeError) -> (Int, Int) {
        let prefix: [UInt8] = Array("HTTP/1.".utf8)
        guard line.count >= 12, zip(input[line.lowerBound..<(line.lowerBound + 7)], prefix).allSatisfy({ $0 == $1 }) else {
            throw .malformed("the upstream did not answer with an HTTP/1.x status line")
        }
        let minor = input[line.lowerBound + 7]
        guard minor >= 0x30, minor <= 0x39, input[line.lowerBound + 8] == 0x20 else {
            throw .malformed("the upstream's status line has a malformed version")
        }
        var status = 0
        for i in (line.lowerBound + 9)..<(line.lowerBound + 12) {
            let digit = input[i]
            guard digit >= 0x30, digit <= 0x39 else { throw .malformed("the upstream's status line has no three-digit status") }
            status = status * 10 + Int(digit - 0x30)
        }
        guard status >= 100, line.count == 12 || input[line.lowerBound + 12] == 0x20 else {
            throw .malformed("the upstream's status line has no three-digit status")
        }
        return (Int(minor - 0x30), status)
    }

    // MARK: chunked framing

    /// Takes one line at `offset` (line end stripped); nil when it is incomplete.
    private func takeLine(_ input: UnsafeRawBufferPointer, at offset: inout Int) throws(HTTP1DecodeError) -> Range<Int>? {
        let limit = min(input.count, offset + Self.maxLineBytes + 2)
        guard let lf = HTTP1Head.firstIndex(of: 0x0A, in: input, offset..<limit) else {
            if input.count - offset > Self.maxLineBytes { throw .tooLarge("a chunk-size or trailer line is longer than \(Self.maxLineBytes / 1024) KiB") }
            return nil
        }
        var end = lf
        if end > offset, input[end - 1] == 0x0D { end -= 1 }
        defer { offset = lf + 1 }
        return offset..<end
    }

    /// The size of a chunk-size line: hexadecimal digits, then optional extensions after `;`.
    private static func chunkSize(_ input: UnsafeRawBufferPointer, _ line: Range<Int>) throws(HTTP1DecodeError) -> Int {
        var size = 0
        var digits = 0
        var i = line.lowerBound
        while i < line.upperBound {
            let byte = input[i]
            let value: Int
            switch byte {
            case 0x30...0x39: value = Int(byte - 0x30)
            case 0x41...0x46: value = Int(byte - 0x41 + 10)
            case 0x61...0x66: value = Int(byte - 0x61 + 10)
            default: value = -1
            }
            if value < 0 { break }
            digits += 1
            guard digits <= 15 else { throw .malformed("a chunk size is too large") }
            size = size * 16 + value
            i += 1
        }
        guard digits > 0 else { throw .malformed("a chunk-size line has no hexadecimal size") }
        while i < line.upperBound, input[i] == 0x20 || input[i] == 0x09 { i += 1 }
        guard i == line.upperBound || input[i] == 0x3B else { throw .malformed("a chunk-size line has text after its size") }
        return size
    }
}

/// Why a response could not be decoded.
enum HTTP1DecodeError: Error, Equatable {
    case malformed(String)
    case tooLarge(String)

    var detail: String {
        switch self {
        case .malformed(let text), .tooLarge(let text): text
        }
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
