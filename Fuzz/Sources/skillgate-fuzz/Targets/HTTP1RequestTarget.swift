@testable import SkillGateHTTP

/// The inbound server's readers of untrusted request bytes (decision 0058): `RequestHeadParser` (where a head ends and
/// what it says), `RequestHost`, `RequestFraming` and `ChunkedBodyDecoder`, composed as the event loop reads a connection. The first
/// byte is the body limit's selector; the rest is the bytes of the connection. Invariants: the same outcome (heads,
/// refusals, bodies) whole, split at two points chosen from the input, and one byte at a time (short inputs); a parsed
/// head's fields hold no CR, LF or other control byte, its path starts with `/` or is `*`; a body is never longer than
/// the input nor over the limit.
enum HTTP1RequestTarget: FuzzTarget {
    struct Outcome: Equatable {
        var requests: [String] = []
        var refusal: Int?
    }

    static func run(_ data: [UInt8]) {
        guard let selector = data.first else { return }
        let bytes = Array(data.dropFirst())
        let limit = [0, 16, 1024, 1 << 20][Int(selector & 3)]
        let whole = read([bytes], limit: limit)
        let (a, b) = SSETarget.cuts(bytes)
        let split = read([Array(bytes[..<a]), Array(bytes[a..<b]), Array(bytes[b...])], limit: limit)
        invariant(split == whole, "split at \(a),\(b): \(split) != \(whole)")
        if bytes.count <= 512 {
            let bytewise = read(bytes.map { [$0] }, limit: limit)
            invariant(bytewise == whole, "byte by byte: \(bytewise) != \(whole)")
        }
    }

    private enum Phase {
        case head(scanned: Int)
        case length(remaining: Int, head: String)
        case chunked(ChunkedBodyDecoder, head: String)
    }

    /// Reads `pieces` as a connection's successive reads, carrying unread bytes over like `Connection.input`.
    static func read(_ pieces: [[UInt8]], limit: Int) -> Outcome {
        var outcome = Outcome()
        var phase = Phase.head(scanned: 0)
        var unread: [UInt8] = []
        var body: [UInt8] = []
        var total = 0
        for piece in pieces where outcome.refusal == nil {
            total += piece.count
            let input = unread + piece
            unread = []
            input.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count && outcome.refusal == nil {
                    switch phase {
                    case .head(let scanned):
                        if scanned == 0 { offset += RequestHeadParser.blankLinePrefix(buffer, from: offset) }
                        guard offset < buffer.count else { return }
                        guard let end = HTTP1Head.end(of: buffer, from: offset, scanned: offset + scanned) else {
                            if buffer.count - offset > 64 * 1024 { outcome.refusal = 431; return }
                            phase = .head(scanned: buffer.count - offset)
                            unread = Array(input[offset...])
                            return
                        }
                        switch RequestHeadParser.parse(UnsafeRawBufferPointer(rebasing: buffer[offset..<end])) {
                        case .failure(let refusal):
                            outcome.refusal = refusal.status
                            return
                        case .success(let head):
                            check(head)
                            let summary = "\(head.method) \(head.path) \(head.query ?? "-") 1.\(head.minorVersion) \(head.keepAlive) "
                                + head.headers.fields.map { "\($0.name)=\($0.value)" }.joined(separator: ";")
                            offset = end
                            if let refusal = RequestHost.check(head) {
                                outcome.refusal = refusal.status
                                return
                            }
                            switch RequestFraming.check(head.headers) {
                            case .failure(let refusal):
                                outcome.refusal = refusal.status
                                return
                            case .success(.none):
                                outcome.requests.append(summary + " body=")
                                phase = .head(scanned: 0)
                            case .success(.length(let length)):
                                guard length <= limit else { outcome.refusal = 413; return }
                                phase = .length(remaining: length, head: summary)
                            case .success(.chunked):
                                phase = .chunked(ChunkedBodyDecoder(), head: summary)
                            }
                        }
                    case .length(let remaining, let head):
                        let take = min(remaining, buffer.count - offset)
                        body += buffer[offset..<(offset + take)]
                        offset += take
                        if take == remaining {
                            outcome.requests.append(head + " body=\(body)")
                            body = []
                            phase = .head(scanned: 0)
                        } else {
                            phase = .length(remaining: remaining - take, head: head)
                        }
                    case .chunked(var decoder, let head):
                        switch decoder.decode(UnsafeRawBufferPointer(rebasing: buffer[offset...]), into: &body, limit: limit) {
                        case .needsMore:
                            phase = .chunked(decoder, head: head)
                            offset = buffer.count
                        case .finished(let used):
                            invariant(used > 0 && offset + used <= buffer.count, "chunked body used \(used) of \(buffer.count - offset)")
                            outcome.requests.append(head + " body=\(body)")
                            body = []
                            offset += used
                            phase = .head(scanned: 0)
                        case .malformed:
                            outcome.refusal = 400
                        case .tooLarge:
                            outcome.refusal = 413
                        case .trailersTooLarge:
                            outcome.refusal = 431
                        }
                    }
                    invariant(body.count <= total && body.count <= limit, "a body of \(body.count) from \(total) input bytes, limit \(limit)")
                }
            }
        }
        return outcome
    }

    private static func check(_ head: ParsedRequestHead) {
        invariant(head.path.first == "/" || head.path == "*", "path \(head.path.debugDescription)")
        for field in head.headers {
            for byte in field.name.utf8 { invariant(RequestHeadParser.isTokenByte(byte), "field name \(field.name.debugDescription)") }
            for byte in field.value.utf8 {
                invariant((byte >= 0x20 && byte != 0x7F) || byte == 0x09, "control byte \(byte) in \(field.value.debugDescription)")
            }
        }
    }

    /// Requests framed every way around the recorded request-shaped documents, plus the edge forms of the tests.
    static func seeds(_ fixtures: Fixtures) -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for body in fixtures.documents().prefix(30) {
            seeds.append([3] + Array("POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer sg-x\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
            let framed = Array("POST /v1/messages?beta=true HTTP/1.1\r\nHost: gw\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                + chunked(body, piece: 61)
            seeds.append([3] + framed + Array("0\r\nX-Trailer: 1\r\n\r\n".utf8) + Array("GET /v1/models HTTP/1.1\r\nHost: gw\r\n\r\n".utf8))
        }
        let edges = [
            "GET / HTTP/1.0\nConnection: keep-alive\n\n\r\nHEAD /h HTTP/1.1\r\nHost: gw\r\nContent-Length: 3\r\n\r\nabc",
            "OPTIONS * HTTP/1.1\r\nHost: gw\r\nX-Folded: a\r\n  b\r\n\r\n",
            "GET http://host:1/p?q#f HTTP/1.1\r\nHost: host:1\r\nExpect: 100-continue\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: gw\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nhi",
            "POST / HTTP/1.1\r\nHost: gw\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n0\r\n\r\n",
            "GET / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            "BREW / HTTP/1.1\r\nHost: gw\r\n\r\n",
        ]
        for edge in edges { seeds.append([2] + Array(edge.utf8)); seeds.append([1] + Array(edge.utf8)) }
        return seeds
    }
}
