@testable import SkillGateHTTP
import Testing

/// Head syntax the server and the own client share (decision 0058): where a head ends, found whole or resumed as its
/// bytes arrive, its lines, and the `Connection` field's tokens.
@Suite struct HTTP1HeadTests {
    @Test(arguments: [
        ("GET / HTTP/1.1\r\n\r\n", 18), ("GET / HTTP/1.1\n\n", 16), ("GET / HTTP/1.1\r\nA: b\r\n\r\nBODY", 24),
        ("GET / HTTP/1.1\r\nA: b\r\n", nil), ("GET / HTTP/1.1\r\n\r", nil),
    ] as [(String, Int?)])
    func theEndOfAHeadIsFoundWholeAndScannedInSteps(text: String, end: Int?) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { all in
            #expect(HTTP1Head.end(of: all, from: 0, scanned: 0) == end)
            // The same head arriving one byte at a time, each call resuming where the last stopped.
            var scanned = 0
            var found: Int?
            for count in 1...all.count {
                let prefix = UnsafeRawBufferPointer(rebasing: all[0..<count])
                if let result = HTTP1Head.end(of: prefix, from: 0, scanned: scanned) { found = result; break }
                scanned = count
            }
            #expect(found == end)
        }
    }

    @Test func linesEndAtTheEmptyLineAndALastLineMayLackItsLineFeed() {
        Array("A\r\nB\nC".utf8).withUnsafeBytes { bytes in
            var lines = HTTP1Head.Lines(bytes)
            var found: [Range<Int>] = []
            while let line = lines.next() { found.append(line) }
            #expect(found == [0..<1, 3..<4, 5..<6])
        }
        Array("A\r\n\r\nB\r\n".utf8).withUnsafeBytes { bytes in
            var lines = HTTP1Head.Lines(bytes)
            #expect(lines.next() == 0..<1)
            #expect(lines.next() == nil)
        }
    }

    @Test(arguments: [("close", true, false), ("Keep-Alive", false, true), (" TE , CLOSE,keep-alive ", true, true), ("closed, upgrade", false, false),
                             ("", false, false), (",,close,,", true, false), ("\tkeep-alive\t", false, true), ("keep-alive , ", false, true),
                             ("clos", false, false), ("keep-alive-ish", false, false)])
    func connectionTokensAreReadInAnyCase(value: String, close: Bool, keepAlive: Bool) {
        let tokens = HTTP1Head.connectionTokens(value)
        #expect(tokens.close == close)
        #expect(tokens.keepAlive == keepAlive)
    }
}
