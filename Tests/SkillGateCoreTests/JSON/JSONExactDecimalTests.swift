import Testing
import SkillGateTestSupport
@testable import SkillGateCore

/// `JSONValue.exactDecimal`, the fast path of `doubleValue` for plain decimals: bit for bit what `Double(_:)` reads, and
/// nil (so `Double(_:)` reads it) for what it does not take.
@Suite struct JSONExactDecimalTests {
    @Test(arguments: ["0", "-0", "0.2", "-0.2", "1", "2.5", "0.1", "0.7", "1.1", "3.14159", "123456789012345", "-999999999999999",
                      "0.000000000000001", "0.0000000000000000000001", "99999999999999.9", "42.000", "1.0"])
    func readsPlainDecimalsExactlyAsStrtodDoes(_ text: String) throws {
        let fast = try #require(JSONValue.exactDecimal(text))
        let slow = try #require(Double(text))
        #expect(fast.bitPattern == slow.bitPattern, "\(text): \(fast) against \(slow)")
    }

    @Test(arguments: ["1e5", "1.5E-3", "1234567890123456", "0.00000000000000000000001", "", "-", ".5", "5.", "1.2.3", "abc", "1-2",
                      "NaN", "0x10"])
    func leavesEverythingElseToDouble(_ text: String) {
        #expect(JSONValue.exactDecimal(text) == nil, "\(text)")
    }

    /// Many random decimals of up to 15 digits, with the point anywhere: every one agrees with `Double(_:)` bit for bit.
    @Test func agreesWithDoubleOnRandomDecimals() {
        var generator = SplitMix(seed: 0x5EED)
        for _ in 0..<50_000 {
            let digitCount = Int(generator.next() % 15) + 1
            var digits = (0..<digitCount).map { _ in Character(String(generator.next() % 10)) }
            let point = Int(generator.next() % UInt64(digitCount + 1))
            if point > 0, point < digitCount { digits.insert(".", at: point) }
            var text = String(digits)
            if text.hasPrefix("."), text.count > 1 { text = "0" + text }
            if generator.next() % 2 == 0 { text = "-" + text }
            guard let slow = Double(text) else { continue }
            if let fast = JSONValue.exactDecimal(text) {
                #expect(fast.bitPattern == slow.bitPattern, "\(text)")
            }
        }
    }
}
