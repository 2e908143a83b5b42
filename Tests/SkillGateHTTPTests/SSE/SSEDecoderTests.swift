import Testing
@testable import SkillGateHTTP

@Suite struct SSEDecoderTests {
    private func decodeWhole(_ text: String) -> [SSEEvent] {
        var d = SSEDecoder()
        return d.feed(Array(text.utf8)) + d.finish()
    }

    private func decodeByteByByte(_ bytes: [UInt8]) -> [SSEEvent] {
        var d = SSEDecoder()
        var events: [SSEEvent] = []
        for b in bytes { events += d.feed([b]) }
        return events + d.finish()
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func splitsEventsOnEveryLineEnding(_ eol: String) {
        let text = "event: a\(eol)data: one\(eol)\(eol)data: two\(eol)data: lines\(eol)\(eol)"
        let events = decodeWhole(text)
        #expect(events == [SSEEvent(event: "a", data: "one"), SSEEvent(data: "two\nlines")])
        #expect(decodeByteByByte(Array(text.utf8)) == events)
    }

    /// An event whose data lines never end is bounded like a line: past `maxLineBytes` its further data lines are
    /// dropped, however the bytes are split, so an upstream that never ends its event cannot grow it without limit.
    @Test(arguments: [1, 7, 4_096])
    func anEventThatNeverEndsIsBounded(chunkSize: Int) {
        let line = "data: " + String(repeating: "x", count: 999) + "\n"
        let bytes = Array((String(repeating: line, count: 100) + "\n").utf8)
        var decoder = SSEDecoder(maxLineBytes: 10_000)
        var events: [SSEEvent] = []
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            events += decoder.feed(Array(bytes[start..<min(start + chunkSize, bytes.count)]))
        }
        events += decoder.finish()
        #expect(events.count == 1)
        let data = events.first?.data ?? ""
        #expect(data.utf8.count <= 10_000 && data.utf8.count >= 9_000, "\(data.utf8.count) bytes of data")
        #expect(data == Array(repeating: String(repeating: "x", count: 999), count: 10).joined(separator: "\n"))
    }

    @Test func ignoresCommentsAndKeepsIdAndRetry() {
        let events = decodeWhole(": keep-alive\n\nid: 7\nretry: 1500\ndata:x\n\n")
        #expect(events == [SSEEvent(data: "x", id: "7", retry: 1500)])
    }

    @Test func reassemblesUTF8SplitAcrossChunks() {
        let bytes = Array("data: 你好😀\n\n".utf8)
        for split in 1..<bytes.count {
            var d = SSEDecoder()
            let events = d.feed(bytes[..<split]) + d.feed(bytes[split...]) + d.finish()
            #expect(events == [SSEEvent(data: "你好😀")], "split at \(split)")
        }
    }

    @Test func doneMarkerAndTrailingEventWithoutBlankLine() {
        let events = decodeWhole("data: {\"a\":1}\n\ndata: [DONE]")
        #expect(events.count == 2)
        #expect(events[1].isDone)
    }

    @Test func collectsStrayLines() {
        var d = SSEDecoder()
        _ = d.feed(Array("data: 1\n\n{\"error\":{\"code\":499}}\n".utf8))
        _ = d.finish()
        #expect(d.strayText == "{\"error\":{\"code\":499}}")
    }

    @Test func stripsByteOrderMark() {
        #expect(decodeWhole("\u{FEFF}data: x\n\n") == [SSEEvent(data: "x")])
    }

    @Test func encoderOutputDecodesToTheSameEvent() {
        let event = SSEEvent(event: "message_delta", data: "a\nb\r\nc", id: "1")
        var d = SSEDecoder()
        #expect(d.feed(SSEEncoder.encode(event)) == [SSEEvent(event: "message_delta", data: "a\nb\nc", id: "1")])
    }
}
