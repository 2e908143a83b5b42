/// Base62 text (`0-9A-Za-z`): URL-safe, and selected whole by a double click.
enum Base62 {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// The characters needed to write any `byteCount`-byte number in base 62.
    static func length(forByteCount byteCount: Int) -> Int {
        // log(256) / log(62) = 1.34357...; round up.
        Int((Double(byteCount) * 1.3435902316563355).rounded(.up))
    }

    /// `bytes` read as one big-endian number, written in base 62, left-padded with `0` to a fixed
    /// length so every encoding of the same byte count has the same length.
    static func encode(_ bytes: [UInt8]) -> String {
        var number = bytes
        var digits: [UInt8] = []
        digits.reserveCapacity(length(forByteCount: bytes.count))
        // Repeated long division of the byte array by 62; fine for the 32 bytes of a token.
        while number.contains(where: { $0 != 0 }) {
            var remainder = 0
            for i in number.indices {
                let value = remainder * 256 + Int(number[i])
                number[i] = UInt8(value / 62)
                remainder = value % 62
            }
            digits.append(alphabet[remainder])
        }
        while digits.count < length(forByteCount: bytes.count) { digits.append(alphabet[0]) }
        return String(decoding: digits.reversed(), as: UTF8.self)
    }

    /// Whether every character of `text` is a base62 digit.
    static func isBase62(_ text: some StringProtocol) -> Bool {
        isBase62(bytes: text.utf8)
    }

    /// Whether every byte is the ASCII code of a base62 digit.
    static func isBase62(bytes: some Sequence<UInt8>) -> Bool {
        // Over contiguous bytes when the sequence has them (a native string's UTF-8 does): the generic
        // iterator cost ~2k instructions per token check, on every request.
        if let all = bytes.withContiguousStorageIfAvailable({ $0.allSatisfy(isBase62Digit) }) { return all }
        return bytes.allSatisfy(isBase62Digit)
    }

    @inline(__always)
    private static func isBase62Digit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }
}
