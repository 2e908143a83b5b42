import Testing
@testable import SkillGateHTTP

/// The own HTTP/1.1 client's response decoder (decision 0051): every framing, whole and split at every byte, and
/// every malformed form refused.
@Suite struct HTTP1ResponseDecoderTests {
    /// What a decoder made of a response fed in pieces, the way the engine feeds it (unread bytes carried over).
    struct Decoded: Equatable {
        var status = 0
        var headers: [String] = []
        var body: [UInt8] = []
        var complete = false
        var keepsConnection = false
        var stray = 0
    }

    static func decode(_ pieces: [[UInt8]], bodyExpected: Bool = true, closeAtEnd: Bool = false) throws(HTTP1DecodeError) -> Decoded {
        var decoder = HTTP1ResponseDecoder(bodyExpected: bodyExpected)
        var result = Decoded()
        var unread: [UInt8] = []
        pieces: for piece in pieces {
            let input = unread + piece
            unread = []
            var offset = 0
            var failure: HTTP1DecodeError?
            input.withUnsafeBytes { bytes in
                do {
                    while true {
                        switch try decoder.next(bytes, at: &offset) {
                        case .needMore:
                            unread = Array(input[offset...])
                            return
                        case .head(let status, let headers):
                            result.status = status
                            result.headers = headers.map { "\($0.name): \($0.value)" }
                        case .body(let range):
                            result.body += bytes[range]
                            decoder.bodyDelivered(range.count, at: &offset)
                        case .end:
                            result.complete = true
                            result.stray = input.count - offset
                            return
                        }
                    }
                } catch {
                    failure = error as? HTTP1DecodeError
                }
            }
            if let failure { throw failure }
            if result.complete { break pieces }
        }
        if closeAtEnd, !result.complete { result.complete = decoder.finishAtClose() }
        result.keepsConnection = decoder.keepsConnection
        return result
    }

    /// Every way to cut `text` in two, plus byte by byte.
    static func splits(_ text: String) -> [[[UInt8]]] {
        let bytes = Array(text.utf8)
        var all: [[[UInt8]]] = [[bytes], bytes.map { [$0] }]
        for cut in 1..<bytes.count { all.append([Array(bytes[..<cut]), Array(bytes[cut...])]) }
        return all
    }

    static let framings: [(String, String, Bool)] = [
        ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}", "{\"ok\":true}", true),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n", "hello world", true),
        ("HTTP/1.1 200 OK\nContent-Length: 2\n\nhi", "hi", true),
        ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 3\r\n\r\nyes", "yes", true),
        ("HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbyte", "byte", false),
        ("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", "ok", false),
        ("HTTP/1.0 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok", "ok", true),
        ("HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\nContent-Length: 3\r\n\r\nabc", "abc", true),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 99\r\n\r\n1\r\na\r\n0\r\n\r\n", "a", false),
        ("HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n", "", true),
        ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", "", true),
    ]

    @Test(arguments: 0..<framings.count)
    func framedBodiesDecodeTheSameHoweverTheyAreCut(_ index: Int) throws {
        let (text, body, keeps) = Self.framings[index]
        for pieces in Self.splits(text) {
            let decoded = try Self.decode(pieces)
            #expect(decoded.complete, "\(pieces.map(\.count))")
            #expect(decoded.body == Array(body.utf8), "\(pieces.map(\.count))")
            #expect(decoded.keepsConnection == keeps)
            #expect(decoded.status >= 200)
        }
    }

    @Test func aBodyWithoutFramingEndsAtTheClose() throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end"
        for pieces in Self.splits(text) {
            let open = try Self.decode(pieces)
            #expect(!open.complete)
            let closed = try Self.decode(pieces, closeAtEnd: true)
            #expect(closed.complete && closed.body == Array("until the end".utf8) && !closed.keepsConnection)
        }
        // A framed body cut short is not complete at the close.
        #expect(try !Self.decode([Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab".utf8)], closeAtEnd: true).complete)
    }

    @Test func aHeadAnswerHasNoBodyWhateverItsHeadSays() throws {
        let decoded = try Self.decode([Array("HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n".utf8)], bodyExpected: false)
        #expect(decoded.complete && decoded.body.isEmpty && decoded.keepsConnection)
    }

    @Test func headersKeepTheirOrderAndTrimmedValues() throws {
        let decoded = try Self.decode([Array("HTTP/1.1 429 Too Many\r\nRetry-After:  7 \r\nX-A: 1\r\nx-a:2\r\nContent-Length: 0\r\n\r\n".utf8)])
        #expect(decoded.status == 429)
        #expect(decoded.headers == ["Retry-After: 7", "X-A: 1", "x-a: 2", "Content-Length: 0"])
    }

    @Test func bytesAfterTheResponseAreReportedAsStray() throws {
        let decoded = try Self.decode([Array("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxHTTP/1.1 200".utf8)])
        #expect(decoded.complete && decoded.body == [0x78] && decoded.stray == 12)
    }

    static let malformed: [String] = [
        "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
        "HTTP/1.1 200 OK\r\nContent-Length: +3\r\n\r\nabc",
        "HTTP/1.1 200 OK\r\nContent-Length: 3 4\r\n\r\nabc",
        "HTTP/1.1 200 OK\r\nContent-Length: 9999999999999999\r\n\r\n",
        "HTTP/2 200\r\n\r\n",
        "ICY 200 OK\r\n\r\n",
        "HTTP/1.1 20 OK\r\n\r\n",
        "HTTP/1.1 2000 OK\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX-Folded: a\r\n b\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
        "HTTP/1.1 200 OK\r\n: empty name\r\n\r\n",
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1 x\r\na\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n",
    ]

    @Test(arguments: malformed)
    func malformedAnswersAreRefusedWholeAndSplit(_ text: String) {
        for pieces in Self.splits(text) {
            #expect(throws: HTTP1DecodeError.self, "\(pieces.map(\.count))") { _ = try Self.decode(pieces) }
        }
    }

    @Test func anEndlessHeadOrChunkLineIsRefusedOnceItPassesTheLimit() throws {
        let endlessHead = Array("HTTP/1.1 200 OK\r\nX-Big: ".utf8) + Array(repeating: 0x61, count: HTTP1ResponseDecoder.maxHeadBytes)
        #expect(throws: HTTP1DecodeError.tooLarge("the response head is larger than 256 KiB")) { _ = try Self.decode([endlessHead]) }
        let endlessChunkLine = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;".utf8)
            + Array(repeating: 0x61, count: HTTP1ResponseDecoder.maxLineBytes + 10)
        #expect(throws: HTTP1DecodeError.self) { _ = try Self.decode([endlessChunkLine]) }
        // Under the limit it only waits for more.
        let partial = try Self.decode([Array("HTTP/1.1 200 OK\r\nX-Big: ".utf8) + Array(repeating: 0x61, count: 1000)])
        #expect(!partial.complete && partial.status == 0)
    }
}
