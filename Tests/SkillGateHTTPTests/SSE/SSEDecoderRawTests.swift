import Testing
@testable import SkillGateHTTP

/// The closure-taking `feed`/`finish` hand over the same events as the `SSEEvent` API, with the
/// data as bytes: the same bytes as `SSEEvent.data.utf8`, in every split of the body.
@Suite struct SSEDecoderRawTests {
    /// A raw event copied out of the decoder's buffer, to compare after the call.
    struct Copied: Equatable, CustomStringConvertible {
        var event: String?
        var data: [UInt8]
        var id: String?
        var retry: Int?
        init(_ raw: SSERawEvent) { (event, data, id, retry) = (raw.event, Array(raw.data), raw.id, raw.retry) }
        init(_ e: SSEEvent) { (event, data, id, retry) = (e.event, Array(e.data.utf8), e.id, e.retry) }
        var description: String { "\(event ?? "-") \(String(decoding: data, as: UTF8.self)) \(id ?? "-") \(retry ?? -1)" }
    }

    static let bodies: [[UInt8]] = [
        Array("event: a\ndata: one\n\ndata: two\ndata: lines\n\n".utf8),
        Array("event: a\r\ndata: one\r\n\r\ndata: two\r\ndata: lines\r\n\r\n".utf8),
        Array("event: a\rdata: one\r\rdata: two\r\r".utf8),
        Array(": keep-alive\n\nid: 7\nretry: 1500\ndata:x\n\n".utf8),
        Array("\u{FEFF}data: 你好😀\n\ndata: [DONE]".utf8),
        Array("data: {\"a\":1}\n\n{\"error\":{\"code\":499}}\ndata:\n\ndata: last".utf8),
        [0x64, 0x61, 0x74, 0x61, 0x3A, 0x20, 0x61, 0xFF, 0xC3, 0x0A, 0x64, 0x61, 0x74, 0x61, 0x3A, 0xE2, 0x82, 0x0A, 0x0A],
        Array("data: \(String(repeating: "x", count: 3000))\n\n".utf8),
    ]

    private static func viaStrings(_ body: [UInt8], split: Int?) -> [Copied] {
        var d = SSEDecoder()
        var events: [SSEEvent] = []
        for piece in pieces(body, split: split) { events += d.feed(piece) }
        return (events + d.finish()).map(Copied.init)
    }

    private static func viaBytes(_ body: [UInt8], split: Int?) -> [Copied] {
        var d = SSEDecoder()
        var events: [Copied] = []
        for piece in pieces(body, split: split) {
            piece.withUnsafeBytes { d.feed($0) { events.append(Copied($0)) } }
        }
        d.finish { events.append(Copied($0)) }
        return events
    }

    private static func pieces(_ body: [UInt8], split: Int?) -> [[UInt8]] {
        guard let split else { return body.map { [$0] } }
        return [Array(body[..<min(split, body.count)]), Array(body[min(split, body.count)...])]
    }

    @Test(arguments: bodies.indices)
    func rawEventsMatchStringEventsWholeSplitAndByteByByte(_ index: Int) {
        let body = Self.bodies[index]
        let expected = Self.viaStrings(body, split: body.count)
        #expect(!expected.isEmpty)
        #expect(Self.viaBytes(body, split: body.count) == expected)
        #expect(Self.viaBytes(body, split: nil) == expected)
        #expect(Self.viaStrings(body, split: nil) == expected)
        for split in stride(from: 1, to: body.count, by: 3) {
            #expect(Self.viaBytes(body, split: split) == expected, "split at \(split)")
        }
    }

    @Test func invalidUTF8InDataIsReplacedAsTheStringAPIDoes() {
        let body: [UInt8] = Array("data: a".utf8) + [0xFF, 0x62] + Array("\n\n".utf8)
        let events = Self.viaBytes(body, split: body.count)
        #expect(events.map(\.data) == [Array("a\u{FFFD}b".utf8)])
    }

    @Test func keepsStrayTextAndDoneMarker() {
        var d = SSEDecoder()
        var done: [Bool] = []
        Array("data: [DONE]\n\n{\"error\":1}\ndata: [DONE]x\n\n".utf8).withUnsafeBytes { d.feed($0) { done.append($0.isDone) } }
        d.finish { _ in Issue.record("no trailing event expected") }
        #expect(done == [true, false])
        #expect(d.strayText == "{\"error\":1}")
    }

    struct Stop: Error {}

    @Test func anErrorFromTheClosureIsPassedOn() {
        var d = SSEDecoder()
        var seen = 0
        #expect(throws: Stop.self) {
            try Array("data: 1\n\ndata: 2\n\n".utf8).withUnsafeBytes { raw in
                try d.feed(raw) { _ throws(Stop) in
                    seen += 1
                    throw Stop()
                }
            }
        }
        #expect(seen == 1)
    }
}
