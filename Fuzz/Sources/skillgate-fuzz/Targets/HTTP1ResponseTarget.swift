@testable import SkillGateHTTP

/// `HTTP1ResponseDecoder` (SkillGateHTTP/Client/HTTP1, decision 0051): the own HTTP/1.1 client's reader of upstream
/// answers. The first byte picks a HEAD request (odd) or not and whether the connection closes after the input; the
/// rest is the bytes of the connection. Invariants: the same outcome (head, body, completion, error or not, whether the
/// connection is kept) whole, split at two points chosen from the input, and one byte at a time (short inputs); the
/// body is never longer than the input; a body step never lies outside the input.
enum HTTP1ResponseTarget: FuzzTarget {
    struct Outcome: Equatable {
        var status = 0
        var headers: [String] = []
        var body: [UInt8] = []
        var complete = false
        var failed = false
        var keepsConnection = false
    }

    static func run(_ data: [UInt8]) {
        guard let selector = data.first else { return }
        let bytes = Array(data.dropFirst())
        let bodyExpected = selector & 1 == 0
        let closes = selector & 2 != 0
        let whole = decode([bytes], bodyExpected: bodyExpected, closes: closes)
        invariant(whole.body.count <= bytes.count, "the body is longer than the input")
        let (a, b) = SSETarget.cuts(bytes)
        let split = decode([Array(bytes[..<a]), Array(bytes[a..<b]), Array(bytes[b...])], bodyExpected: bodyExpected, closes: closes)
        invariant(split == whole, "split at \(a),\(b): \(split) != \(whole)")
        if bytes.count <= 512 {
            let bytewise = decode(bytes.map { [$0] }, bodyExpected: bodyExpected, closes: closes)
            invariant(bytewise == whole, "byte by byte: \(bytewise) != \(whole)")
        }
    }

    /// Feeds `pieces` the way the engine does: what a step leaves unread is carried over to the next read.
    static func decode(_ pieces: [[UInt8]], bodyExpected: Bool, closes: Bool) -> Outcome {
        var decoder = HTTP1ResponseDecoder(bodyExpected: bodyExpected)
        var outcome = Outcome()
        var unread: [UInt8] = []
        for piece in pieces where !outcome.complete && !outcome.failed {
            let input = unread + piece
            unread = []
            input.withUnsafeBytes { buffer in
                var offset = 0
                do {
                    while true {
                        switch try decoder.next(buffer, at: &offset) {
                        case .needMore:
                            unread = Array(input[offset...])
                            return
                        case .head(let status, let headers):
                            outcome.status = status
                            outcome.headers = headers.map { "\($0.name): \($0.value)" }
                        case .body(let range):
                            invariant(range.lowerBound == offset && range.upperBound <= buffer.count && !range.isEmpty,
                                      "body step \(range) outside the input of \(buffer.count) at \(offset)")
                            outcome.body += buffer[range]
                            decoder.bodyDelivered(range.count, at: &offset)
                        case .end:
                            outcome.complete = true
                            return
                        }
                    }
                } catch {
                    outcome.failed = true
                }
            }
        }
        if closes, !outcome.complete, !outcome.failed { outcome.complete = decoder.finishAtClose() }
        outcome.keepsConnection = decoder.keepsConnection
        return outcome
    }

    /// Answers framed every way around the recorded bodies and streams, plus the edge forms of the decoder's tests.
    static func seeds(_ fixtures: Fixtures) -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for body in fixtures.documents().prefix(40) {
            seeds.append([0] + Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        }
        for stream in fixtures.streams().prefix(40) {
            let framed = Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                + chunked(stream, piece: 97)
            seeds.append([0] + framed + Array("0\r\n\r\n".utf8))
            seeds.append([2] + Array("HTTP/1.0 200 OK\r\n\r\n".utf8) + stream)
        }
        let edges = [
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 3\r\n\r\nyes",
            "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nContent-Length: 4\r\n\r\n1;a=b\r\nx\r\n0\r\nT: 1\r\n\r\n",
            "HTTP/1.1 200 OK\nContent-Length: 2, 2\nConnection: keep-alive, close\n\nhi",
            "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n",
        ]
        for edge in edges { seeds.append([0] + Array(edge.utf8)); seeds.append([1] + Array(edge.utf8)) }
        return seeds
    }
}
