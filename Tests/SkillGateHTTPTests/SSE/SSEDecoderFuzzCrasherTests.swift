import Testing
import SkillGateTestSupport
import SkillGateHTTP

/// The `sse` fuzzing target's crashers (Fuzz/crashers/sse/): the same events and stray text whole,
/// split where the fuzzer split them, byte by byte and through the raw-bytes path, with the default
/// and a tiny line limit.
@Suite struct SSEDecoderFuzzCrasherTests {
    struct Outcome: Equatable {
        var events: [SSEEvent]
        var stray: String
    }

    static func decode(_ chunks: [[UInt8]], maxLine: Int) -> Outcome {
        var decoder = SSEDecoder(maxLineBytes: maxLine)
        var events: [SSEEvent] = []
        for chunk in chunks { events += decoder.feed(chunk) }
        events += decoder.finish()
        return Outcome(events: events, stray: decoder.strayText)
    }

    static func decodeRaw(_ chunks: [[UInt8]], maxLine: Int) -> Outcome {
        var decoder = SSEDecoder(maxLineBytes: maxLine)
        var events: [SSEEvent] = []
        let keep = { (raw: SSERawEvent) in
            events.append(SSEEvent(event: raw.event, data: String(decoding: raw.data, as: UTF8.self), id: raw.id, retry: raw.retry))
        }
        for chunk in chunks { chunk.withUnsafeBytes { decoder.feed($0, onEvent: keep) } }
        decoder.finish(onEvent: keep)
        return Outcome(events: events, stray: decoder.strayText)
    }

    @Test(arguments: FuzzCrashers.names("sse"))
    func everySplitGivesTheSameEvents(_ name: String) throws {
        let data = try FuzzCrashers.bytes("sse", name)
        for limit in [16 * 1024 * 1024, 7] {
            let whole = Self.decode([data], maxLine: limit)
            let (a, b) = FuzzCrashers.cuts(data)
            #expect(Self.decode([Array(data[..<a]), Array(data[a..<b]), Array(data[b...])], maxLine: limit) == whole)
            #expect(Self.decodeRaw([Array(data[..<b]), Array(data[b...])], maxLine: limit) == whole)
            #expect(Self.decode(data.map { [$0] }, maxLine: limit) == whole)
        }
    }
}
