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
        #expect(Self.decode(longTrailer, step: 512).0 == .trailersTooLarge)
        let endlessZeros = String(repeating: "0", count: ChunkedBodyDecoder.maxSizeLine + 1)
        #expect(Self.decode(endlessZeros, step: 512).0 == .malformed)
    }

    /// RFC 9112 §7.1: after the size's hex digits come only optional spaces or tabs (BWS) and a `;` extension. Before,
    /// anything after a space or tab was skipped as an extension, so `2a 99` was read as 0x2a where another parser may
    /// read 0x2a99 or refuse it. Control bytes other than tab in an extension, and trailer lines that are not fields,
    /// were let through too.
    @Test(arguments: [
        "2a 99\r\n", "2a\tzz\r\n", "5 hello\r\n", "5 \t x\r\n", "5;a=\u{0B}\r\nhello\r\n0\r\n\r\n", "5;a=\u{1F}\r\n",
        "5;a\u{7F}\r\n", "5;\u{00}\r\n", "5\r\nhello\r\n0\r\nNoColon\r\n\r\n", "5\r\nhello\r\n0\r\n: empty name\r\n\r\n",
        "5\r\nhello\r\n0\r\nA: b\r\nnot a field\r\n\r\n",
    ])
    func sizeLinesAndTrailersOutsideTheGrammarAreMalformed(wire: String) {
        #expect(Self.decode(wire, step: 1000).0 == .malformed, "\(wire.debugDescription)")
        #expect(Self.decode(wire, step: 1).0 == .malformed, "\(wire.debugDescription) byte by byte")
    }

    @Test(arguments: [
        "5 \r\nhello\r\n0\r\n\r\n", "5 \t;ext\r\nhello\r\n0\r\n\r\n", "5;a=\"x\ty\"\r\nhello\r\n0 ;last\r\n\r\n",
        "5\r\nhello\r\n0\r\nX-Sum: a:b\r\nY:\r\n\r\n",
    ])
    func spacesBeforeAnExtensionTabsInsideItAndFieldTrailersAreTaken(wire: String) {
        let (outcome, body, _) = Self.decode(wire, step: 1)
        #expect(outcome == .finished(consumed: wire.utf8.count), "\(wire.debugDescription)")
        #expect(body == "hello")
    }

    /// Leading zeros count for nothing: sixteen hex digits for 47 are 47, not a size over every limit.
    @Test func aSizeWithManyLeadingZerosIsItsValue() {
        let data = String(repeating: "z", count: 0x2f)
        let wire = "000000000000002f\r\n\(data)\r\n" + String(repeating: "0", count: 40) + "\r\n\r\n"
        let (outcome, body, _) = Self.decode(wire, step: 5)
        #expect(outcome == .finished(consumed: wire.utf8.count))
        #expect(body == data)
        #expect(Self.decode("0000000000000000ffffffffffffffff\r\n", step: 1000).0 == .tooLarge)
    }
}
