import Testing
@testable import SkillGateClient

/// The decoder the URLSession transport uses on Apple platforms (built and tested here too).
@Suite struct SSELineDecoderTests {
    static let body = Array("\u{FEFF}: keep-alive\r\n\r\nevent: text.delta\r\ndata: {\"text\":\"ünï\"}\r\n\r\nevent: a\nid: 7\nretry: 10\ndata: one\ndata: two\n\nevent: b\rdata: cr\r\revent: last\ndata: unterminated".utf8)
    static let expected = [
        ServerSentEvent(event: "text.delta", data: #"{"text":"ünï"}"#),
        ServerSentEvent(event: "a", data: "one\ntwo"),
        ServerSentEvent(event: "b", data: "cr"),
        ServerSentEvent(event: "last", data: "unterminated"),
    ]

    @Test(arguments: [1, 2, 3, 7, 4096])
    func decodesABodySplitAnywhere(_ size: Int) {
        var decoder = SSELineDecoder()
        var events: [ServerSentEvent] = []
        for start in stride(from: 0, to: Self.body.count, by: size) {
            events += decoder.feed(Self.body[start..<min(start + size, Self.body.count)])
        }
        events += decoder.finish()
        #expect(events == Self.expected)
    }

    @Test func blankLinesWithoutDataAndCommentsGiveNoEvent() {
        var decoder = SSELineDecoder()
        #expect(decoder.feed(Array("\n\n: ping\n\nevent: x\n\n".utf8)).isEmpty)
        #expect(decoder.finish().isEmpty)
    }

    /// A line that never ends, and an event whose data lines never end, keep at most `maxLineBytes`: what a server sends
    /// cannot grow the app's memory without limit.
    @Test func anEndlessLineOrEventIsBounded() {
        var decoder = SSELineDecoder(maxLineBytes: 64)
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 10_000)
        #expect(decoder.feed(Array("data: ".utf8) + long + long).isEmpty)
        let truncated = decoder.feed(Array("\n\n".utf8))
        #expect(truncated == [ServerSentEvent(event: nil, data: String(repeating: "x", count: 58))], "the line kept to 64 bytes")

        var lines = "event: many\n"
        for _ in 0..<1000 { lines += "data: 0123456789\n" }
        let events = decoder.feed(Array((lines + "\n").utf8))
        #expect(events.count == 1 && events[0].data.utf8.count <= 64 && events[0].data.hasPrefix("0123456789\n0123456789"))
        #expect(decoder.feed(Array("data: next\n\n".utf8)) == [ServerSentEvent(event: nil, data: "next")], "the next event is whole")
    }
}
