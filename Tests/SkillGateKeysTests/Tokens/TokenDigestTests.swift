import Testing
@testable import SkillGateKeys

@Suite struct TokenDigestTests {
    @Test(arguments: ["abc", "", "sgk_0123456789abcdefghijABCDEFGHIJ0123456789xyz", "ünïcödé 令牌"])
    func itsHexIsTheStoredHash(_ text: String) {
        #expect(TokenDigest(of: text).hex == TokenFormat.hash(text))
    }

    @Test func hexReadsBackToTheSameDigestInEitherCase() throws {
        let digest = TokenDigest(of: "abc")
        #expect(TokenDigest(hex: digest.hex) == digest)
        #expect(TokenDigest(hex: digest.hex.uppercased()) == digest)
        #expect(try #require(TokenDigest(hex: digest.hex)).matches(digest))
    }

    @Test(arguments: ["", "ba7816bf", String(repeating: "a", count: 63), String(repeating: "a", count: 65),
                      String(repeating: "g", count: 64), String(repeating: "a", count: 62) + " a", String(repeating: "é", count: 32)])
    func anythingButSixtyFourHexDigitsIsNoDigest(_ text: String) {
        #expect(TokenDigest(hex: text) == nil)
    }

    /// Each of the 32 bytes counts: a digest differing in any one byte (first, last, or one inside each word) is
    /// another digest, for both `==` and the constant-time `matches`.
    @Test func everyByteCounts() throws {
        let hex = TokenDigest(of: "abc").hex
        for index in [0, 7, 8, 15, 16, 23, 24, 31] {
            var digits = Array(hex.utf8)
            digits[2 * index] = digits[2 * index] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            let other = try #require(TokenDigest(hex: String(decoding: digits, as: UTF8.self)))
            #expect(other != TokenDigest(of: "abc"), "byte \(index)")
            #expect(!other.matches(TokenDigest(of: "abc")), "byte \(index)")
        }
    }

    @Test func tokenShapeIsCheckedOnTheBytes() throws {
        let token = try TokenFormat.generate()
        #expect(TokenFormat.looksLikeToken(token))
        #expect(!TokenFormat.looksLikeToken("sgx_" + token.dropFirst(4)), "another prefix")
        #expect(!TokenFormat.looksLikeToken(String(token.dropLast())), "one short")
        #expect(!TokenFormat.looksLikeToken(token + "a"), "one long")
        #expect(!TokenFormat.looksLikeToken(String(token.dropLast()) + "-"), "not base62")
        #expect(!TokenFormat.looksLikeToken(String(token.dropLast(2)) + "é"), "same byte count, not base62")
        // A bridged or sliced string without contiguous UTF-8 takes the copying path and answers the same.
        #expect(TokenFormat.looksLikeToken(String(Substring(token))))
    }
}
