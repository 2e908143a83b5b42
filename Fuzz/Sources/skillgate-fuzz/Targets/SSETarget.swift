import SkillGateHTTP

/// `SSEDecoder` (SkillGateHTTP/SSE). Invariants: the same bytes give the same events and stray text
/// whole, split at two points chosen from the input, and one byte at a time (short inputs); the
/// closure (raw bytes) path gives the same events as the `SSEEvent` path; the same holds with a
/// tiny line limit (the too-long-line path).
enum SSETarget: FuzzTarget {
    static func run(_ data: [UInt8]) {
        for limit in [16 * 1024 * 1024, 7] {
            let whole = decode([data], maxLine: limit)
            let (a, b) = cuts(data)
            let split = decode([Array(data[..<a]), Array(data[a..<b]), Array(data[b...])], maxLine: limit)
            invariant(split == whole, "split at \(a),\(b) (limit \(limit)): \(split) != \(whole)")
            let raw = decodeRaw([Array(data[..<b]), Array(data[b...])], maxLine: limit)
            invariant(raw == whole, "raw path (limit \(limit)): \(raw) != \(whole)")
            if data.count <= 256 {
                let bytewise = decode(data.map { [$0] }, maxLine: limit)
                invariant(bytewise == whole, "byte by byte (limit \(limit)): \(bytewise) != \(whole)")
            }
        }
    }

    /// Two cut points from the input's bytes (so the fuzzer steers them).
    static func cuts(_ data: [UInt8]) -> (Int, Int) {
        guard !data.isEmpty else { return (0, 0) }
        var h = 0
        for byte in data.prefix(64) { h = h &* 31 &+ Int(byte) }
        let x = Int(UInt(bitPattern: h) % UInt(data.count + 1))
        let y = Int(UInt(bitPattern: h / 7) % UInt(data.count + 1))
        return (min(x, y), max(x, y))
    }

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

    static func seeds(_ fixtures: Fixtures) -> [[UInt8]] {
        fixtures.streams() + [Array("\u{FEFF}event: a\r\ndata: x\rdata:y\r\n\r\nid: 1\nretry: 5\n: c\n\ndata\n\n".utf8)]
    }
}
