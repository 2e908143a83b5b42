import COpenSSL

/// The SHA-256 digest of a token's text, held in four words: what the token cache is keyed by and compares.
///
/// The store keeps the digest as 64 hex digits (`TokenFormat.hash`). Keyed by that text, every request built a
/// 64-byte string, hashed all of it into the cache's table and compared 64 bytes; the digest itself is four words
/// to hash and compare, with no allocation. The hex text is made only when the store has to be asked.
public struct TokenDigest: Hashable, Sendable {
    private let w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    /// The digest of `text`'s UTF-8 bytes.
    public init(of text: String) {
        var text = text
        self = text.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { out in
                sg_sha256(bytes.baseAddress, bytes.count, out.baseAddress)
                return TokenDigest(UnsafeRawBufferPointer(out))
            }
        }
    }

    /// The digest written as `hex` (64 hex digits, either case), or nil when `hex` is not that.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 64 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        for i in 0..<32 {
            guard let high = Self.nibble(utf8[2 * i]), let low = Self.nibble(utf8[2 * i + 1]) else { return nil }
            bytes[i] = high << 4 | low
        }
        self = bytes.withUnsafeBytes { TokenDigest($0) }
    }

    private init(_ bytes: UnsafeRawBufferPointer) {
        w0 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        w1 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        w2 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        w3 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    }

    /// The digest as the store keeps it: 64 lowercase hex digits (`TokenFormat.hash` of the same text).
    public var hex: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in [w0, w1, w2, w3] {
            withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return Hex.encode(bytes)
    }

    /// Whether `other` is the same digest, compared without an early exit (the time taken does not depend on
    /// where two digests differ). `==` may exit early; use it only where the table already matched the key.
    public func matches(_ other: TokenDigest) -> Bool {
        ((w0 ^ other.w0) | (w1 ^ other.w1) | (w2 ^ other.w2) | (w3 ^ other.w3)) == 0
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x61...0x66: digit - 0x61 + 10
        case 0x41...0x46: digit - 0x41 + 10
        default: nil
        }
    }
}
