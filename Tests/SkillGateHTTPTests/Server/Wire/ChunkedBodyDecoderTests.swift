@testable import SkillGateHTTP
import Testing

/// The chunked request body decoder (decision 0058): bodies decode the same however the bytes are cut, framing that two
/// parsers could read differently is refused, and the limit holds.
@Suite struct ChunkedBodyDecoderTests {
    /// Feeds `wire` in pieces of `step` bytes; returns the outcome and the body.
    private static func decode(_ wire: String, step: Int, limit: Int = 1 << 20) -> (ChunkedBodyDecoder.Outcome, String, Int) {
        var decoder = ChunkedBodyDecoder()
        var body: [UInt8] = []
        let bytes = Array(wire.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + step)
            let outcome = bytes[offset..<end].withUnsafeBytes { decoder.decode($0, into: &body, limit: limit) }
            switch outcome {
            case .needsMore: offset = end
            case .finished(let used): return (.finished(consumed: offset + used), String(decoding: body, as: UTF8.self), offset + used)
            default: return (outcome, String(decoding: body, as: UTF8.self), offset)
            }
        }
        return (.needsMore, String(decoding: body, as: UTF8.self), offset)
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func aBodyDecodesTheSameHoweverItIsCut(step: Int) {
        let wire = "5\r\nhello\r\nA;name=value\r\n, chunked!\r\n0\r\nTrailer: yes\r\n\r\nNEXT"
        let (outcome, body, used) = Self.decode(wire, step: step)
        #expect(body == "hello, chunked!")
        #expect(outcome == .finished(consumed: wire.utf8.count - 4))
        #expect(used == wire.utf8.count - 4)
    }

    @Test(arguments: [
        "ZZZ\r\n", "\r\n", "-1\r\n", "5\nhello\r\n0\r\n\r\n", "5\r\nhello\n0\r\n\r\n", "5\r\nhelloX\r\n", "5\r\nhello\r\n0\r\n\n",
        "0x5\r\nhello\r\n0\r\n\r\n", "5\r\nhello\r\n0\r\nTrailer\n\r\n",
    ])
    func brokenFramingIsMalformed(wire: String) {
        #expect(Self.decode(wire, step: 1000).0 == .malformed, "\(wire.debugDescription)")
    }

    @Test func theLimitCountsDataAcrossChunksAndHugeSizesAreTooLarge() {
        #expect(Self.decode("4\r\nabcd\r\n4\r\nefgh\r\n0\r\n\r\n", step: 3, limit: 8).0 == .finished(consumed: 23))
        #expect(Self.decode("4\r\nabcd\r\n5\r\nefghi\r\n0\r\n\r\n", step: 3, limit: 8).0 == .tooLarge)
        #expect(Self.decode("ffffffffffffffffff\r\n", step: 1000).0 == .tooLarge)
    }

    @Test func anEndlessSizeLineOrTrailerIsRefused() {
        let longExtension = "5;" + String(repeating: "x", count: ChunkedBodyDecoder.maxSizeLine) + "\r\n"
        #expect(Self.decode(longExtension, step: 512).0 == .malformed)
        let longTrailer = "0\r\n" + String(repeating: "T: v\r\n", count: ChunkedBodyDecoder.maxTrailerBytes / 6 + 1) + "\r\n"
        #expect(Self.decode(longTrailer, step: 512).0 == .malformed)
    }
}
