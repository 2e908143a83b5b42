/// How `CompactJSONEncoder` writes scalars: the same text as SkillGate's server-side JSON writer.
enum JSONText {
    static let null = Array("null".utf8)

    /// The JSON text of `value` if it is a string, a boolean or a number; nil for anything else.
    static func scalar<T>(_ value: T) -> [UInt8]? {
        switch value {
        case let string as String:
            return self.string(string)
        case let bool as Bool:
            return self.bool(bool)
        case let number as JSONNumber:
            return Array(number.text.utf8)
        case let double as Double:
            return number(double)
        case let float as Float:
            return number(Double(float))
        case let integer as any BinaryInteger:
            return Array(String(describing: integer).utf8)
        default:
            return nil
        }
    }

    /// Integral values below 10^15 without a fraction (`3`), others in Swift's shortest form
    /// that reads back the same (`0.1`, `1.2e-05`); NaN and infinities as `null`.
    static func number(_ value: Double) -> [UInt8] {
        guard value.isFinite else { return null }
        if value == value.rounded(), abs(value) < 1e15 { return Array(String(Int64(value)).utf8) }
        return Array(String(value).utf8)
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// The JSON text of a string, a boolean, a double and an integer: what `scalar` gives for each, without its
    /// dynamic casts (the containers' typed `encode` overloads call these).
    static func string(_ value: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count + 2)
        writeString(value, to: &out)
        return out
    }

    static func bool(_ value: Bool) -> [UInt8] { Array((value ? "true" : "false").utf8) }

    static func integer<I: BinaryInteger>(_ value: I) -> [UInt8] { Array(String(value).utf8) }

    /// Appends `string` as a JSON string literal. Runs of bytes that need no escape are copied at once.
    static func writeString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                runStart = i + 1
                switch byte {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                case 0x09: out.append(contentsOf: [0x5C, 0x74])
                default: out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
