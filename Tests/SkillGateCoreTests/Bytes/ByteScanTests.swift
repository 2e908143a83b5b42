import SkillGateCore
import Testing

/// The word-at-a-time scans must agree with a plain byte loop for every byte value at every
/// position (the bit trick's borrows are where such code goes wrong).
@Suite struct ByteScanTests {
    private static func naiveJSONStop(_ bytes: [UInt8], from start: Int) -> (Int, Bool) {
        var high: UInt8 = 0
        for i in start..<bytes.count {
            let b = bytes[i]
            if b == 0x22 || b == 0x5C || b < 0x20 { return (i, high >= 0x80) }
            high |= b
        }
        return (bytes.count, high >= 0x80)
    }

    @Test(arguments: [UInt8](0...255))
    func jsonStringStopFindsEachByteValueAtEachPosition(_ value: UInt8) {
        for length in [1, 7, 8, 9, 17, 24, 33, 41, 57] {
            for position in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = value
                for start in [0, min(position, 3)] {
                    var high: UInt8 = 0
                    let stop = bytes.withUnsafeBufferPointer {
                        ByteScan.jsonStringStop(in: $0.baseAddress!, from: start, to: length, high: &high)
                    }
                    let (expected, expectedHigh) = Self.naiveJSONStop(bytes, from: start)
                    #expect(stop == expected, "value \(value) at \(position) of \(length) from \(start)")
                    #expect((high >= 0x80) == expectedHigh, "high bit for value \(value) at \(position) of \(length)")
                }
            }
        }
    }

    @Test(arguments: [UInt8](0...255))
    func lineEndFindsEachByteValueAtEachPosition(_ value: UInt8) {
        for length in [1, 8, 13, 16, 33] {
            for position in 0..<length {
                var bytes = [UInt8](repeating: 0x7F, count: length)
                bytes[position] = value
                let found = bytes.withUnsafeBufferPointer { ByteScan.lineEnd(in: $0.baseAddress!, from: 0, to: length) }
                let expected = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? length
                #expect(found == expected, "value \(value) at \(position) of \(length)")
            }
        }
    }

    @Test func aHitAfterAnotherSpecialByteInTheSameWordIsNotMissed() {
        // 0x01 then '"' in one word: the first stop is the control byte, the next one the quote.
        let bytes: [UInt8] = Array("abc".utf8) + [0x01, 0x22] + Array("xyzxyz".utf8)
        var high: UInt8 = 0
        let first = bytes.withUnsafeBufferPointer { ByteScan.jsonStringStop(in: $0.baseAddress!, from: 0, to: bytes.count, high: &high) }
        let second = bytes.withUnsafeBufferPointer { ByteScan.jsonStringStop(in: $0.baseAddress!, from: first + 1, to: bytes.count, high: &high) }
        #expect(first == 3)
        #expect(second == 4)
    }
}

@Suite struct ByteScanASCIITests {
    @Test(arguments: [UInt8](0x70...0xFF))
    func isASCIIFindsAHighByteAtEachPosition(_ value: UInt8) {
        for length in [1, 7, 8, 9, 17, 24] {
            for position in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = value
                let ascii = bytes.withUnsafeBufferPointer { ByteScan.isASCII($0.baseAddress!, count: length) }
                #expect(ascii == (value < 0x80), "value \(value) at \(position) of \(length)")
            }
        }
    }
}
