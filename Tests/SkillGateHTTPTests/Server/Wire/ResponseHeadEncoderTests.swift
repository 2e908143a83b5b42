@testable import SkillGateHTTP
import Testing

/// Reply heads and chunk framing as the server writes them (decision 0058).
@Suite struct ResponseHeadEncoderTests {
    private static let date = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)

    private static func head(_ status: Int, _ headers: HTTPHeaders, _ framing: ResponseHeadEncoder.Framing,
                             keep: Bool = false, connection: ResponseHeadEncoder.ConnectionField = .unsaid) -> String {
        var out: [UInt8] = []
        date.withUnsafeBytes {
            ResponseHeadEncoder.appendHead(to: &out, status: status, headers: headers, framing: framing,
                                           keepHandlerContentLength: keep, connection: connection, date: $0)
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func aReplyHeadHasItsFieldsTheDateTheLengthAndTheConnection() {
        #expect(Self.head(200, ["Content-Type": "application/json", "content-length": "99", "Transfer-Encoding": "gzip", "Connection": "x"],
                          .length(12), connection: .close)
                == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nContent-Length: 12\r\nConnection: close\r\n\r\n")
        #expect(Self.head(404, ["Date": "own"], .chunked, connection: .keepAlive)
                == "HTTP/1.1 404 Not Found\r\nDate: own\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n")
        #expect(Self.head(204, ["Content-Length": "5"], .none, keep: true)
                == "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n")
    }

    @Test func fieldsThatWouldInjectLinesAreDropped() {
        let text = Self.head(200, ["X-Ok": "1", "X-Bad": "a\r\nInjected: yes", "X\nBad": "v"], .length(0))
        #expect(!text.contains("Injected"))
        #expect(!text.contains("X\nBad"))
        #expect(text.contains("X-Ok: 1\r\n"))
    }

    /// A field value may hold visible characters, spaces and tabs only (RFC 9110 §5.5): a NUL, another control
    /// character or DEL makes clients refuse the whole reply (curl: "Nul byte in header", Node: HPE_INVALID_HEADER_TOKEN),
    /// so such a field is dropped like one that would inject a line.
    @Test(arguments: ["a\u{0}b", "a\u{0B}b", "a\u{1F}b", "a\u{7F}b", "a\u{1B}[31mb"])
    func fieldsWithControlCharactersAreDropped(_ value: String) {
        let text = Self.head(200, ["X-Ok": "1\tand a tab", "X-Bad": value, "X\u{0}Name": "v"], .length(0))
        #expect(!text.contains("X-Bad") && !text.contains("Name"), "\(text.debugDescription)")
        #expect(text.contains("X-Ok: 1\tand a tab\r\n"))
    }

    /// The head is written into a buffer sized from its fields: a long field, a non-ASCII one and small ones (stored
    /// inline in their `String`) come out whole and in order, after what was already in the output.
    @Test func longNonASCIIAndSmallFieldsAreWrittenWhole() {
        let long = String(repeating: "abc", count: 7_000)
        var out = Array("before".utf8)
        Self.date.withUnsafeBytes {
            ResponseHeadEncoder.appendHead(to: &out, status: 599, headers: ["X-Long": long, "X-Name": "café ✓", "x": "1"],
                                           framing: .length(Int.max), keepHandlerContentLength: false, connection: .keepAlive, date: $0)
        }
        #expect(String(decoding: out, as: UTF8.self)
                == "beforeHTTP/1.1 599 Server Error\r\nX-Long: \(long)\r\nX-Name: café ✓\r\nx: 1\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
                + "Content-Length: \(Int.max)\r\nConnection: keep-alive\r\n\r\n")
    }

    @Test(arguments: [(0, "0"), (7, "7"), (10, "10"), (1_234_567_890_123, "1234567890123"), (Int.max, "\(Int.max)")])
    func decimalsAreWritten(value: Int, text: String) {
        var out: [UInt8] = []
        ResponseHeadEncoder.appendDecimal(value, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == text)
    }

    @Test(arguments: [(1, "1"), (15, "f"), (16, "10"), (4096, "1000"), (65535, "ffff")])
    func chunksCarryTheirHexSize(size: Int, hex: String) {
        var out: [UInt8] = []
        ResponseHeadEncoder.appendChunk([UInt8](repeating: 0x61, count: size), to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "\(hex)\r\n" + String(repeating: "a", count: size) + "\r\n")
    }

    @Test(arguments: [(200, "OK"), (413, "Payload Too Large"), (299, "Success"), (599, "Server Error"), (418, "Client Error")])
    func statusesHaveAReasonPhrase(status: Int, phrase: String) {
        #expect(ResponseHeadEncoder.reasonPhrase(status) == phrase)
    }

    /// A handler's own framing fields never reach the wire: the server frames every reply itself, so a
    /// `Transfer-Encoding`, or a `Content-Length` on a reply it measures, could only disagree with it. Names match in
    /// any case, and nothing else is taken for one.
    @Test(arguments: [
        ("Content-Length", false, true),
        ("content-length", false, true),
        ("CONTENT-LENGTH", true, false),   // kept where the server does not measure the body (streams, HEAD)
        ("Transfer-Encoding", false, true),
        ("transfer-ENCODING", true, true),
        ("x-skillgate-model", false, false),   // 17 bytes, like transfer-encoding
        ("x-content-length", false, false),
        ("content-lengthx", false, false),
        ("Content-Type", false, false),
    ])
    func framingFieldsAreRecognised(name: String, keepContentLength: Bool, isFraming: Bool) {
        #expect(ResponseHeadEncoder.isFramingField(name, keepContentLength: keepContentLength) == isFraming)
    }
}
