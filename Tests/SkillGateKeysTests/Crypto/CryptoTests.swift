import Testing
@testable import SkillGateKeys

@Suite struct CryptoTests {
    @Test func sha256MatchesTheFIPSVectors() {
        #expect(SHA256Hash.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Hash.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func constantTimeEqualsComparesEveryByte() {
        let a: [UInt8] = Array(0..<32)
        var lastDiffers = a
        lastDiffers[31] ^= 1
        var firstDiffers = a
        firstDiffers[0] ^= 0x80
        #expect(ConstantTime.equals(a, a))
        #expect(!ConstantTime.equals(a, lastDiffers))
        #expect(!ConstantTime.equals(a, firstDiffers))
        #expect(!ConstantTime.equals(a, Array(a.prefix(31))))
        #expect(ConstantTime.equals([], []))
        #expect(ConstantTime.equals("sgk_abc", "sgk_abc"))
        #expect(!ConstantTime.equals("sgk_abc", "sgk_abd"))
    }

    @Test func secureRandomGivesFreshBytes() throws {
        let a = try SecureRandom.bytes(32)
        let b = try SecureRandom.bytes(32)
        #expect(a.count == 32)
        #expect(a != b)
    }

    @Test func base62HasAFixedLengthAndKnownValues() {
        #expect(Base62.length(forByteCount: 32) == 43)
        #expect(Base62.encode([0x01, 0x00]) == "048")  // 256 = 4 * 62 + 8
        #expect(Base62.encode([UInt8](repeating: 0, count: 32)) == String(repeating: "0", count: 43))
        let max = Base62.encode([UInt8](repeating: 0xFF, count: 32))
        #expect(max.count == 43)
        #expect(Base62.isBase62(max))
        #expect(!Base62.isBase62("abc-def"))
    }
}
