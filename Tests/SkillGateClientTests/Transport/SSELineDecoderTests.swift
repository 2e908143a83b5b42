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
}
