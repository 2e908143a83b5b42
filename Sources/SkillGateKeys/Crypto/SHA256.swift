import COpenSSL

/// SHA-256 through OpenSSL's libcrypto.
public enum SHA256Hash {
    /// The 32-byte SHA-256 digest of `bytes`.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { out, count in
            let done: Void? = bytes.withContiguousStorageIfAvailable { sg_sha256($0.baseAddress, $0.count, out.baseAddress) }
            if done == nil { Array(bytes).withUnsafeBufferPointer { sg_sha256($0.baseAddress, $0.count, out.baseAddress) } }
            count = 32
        }
    }

    /// The SHA-256 digest of the UTF-8 bytes of `text`, as 64 lowercase hex digits.
    public static func hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { Hex.encode(digest($0)) }
    }
}

/// Lowercase hexadecimal text.
package enum Hex {
    /// `bytes` as lowercase hex digits, two per byte.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            var i = 0
            for b in bytes {
                out[i] = hexDigit(b >> 4)
                out[i + 1] = hexDigit(b & 0x0F)
                i += 2
            }
            return i
        }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10
    }
}
