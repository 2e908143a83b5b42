import COpenSSL

/// SHA-256 through OpenSSL's libcrypto.
public enum SHA256Hash {
    /// The 32-byte SHA-256 digest of `bytes`.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let done: Void? = bytes.withContiguousStorageIfAvailable { input in
            out.withUnsafeMutableBufferPointer { _ = COpenSSL.SHA256(input.baseAddress, input.count, $0.baseAddress) }
        }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { _ = COpenSSL.SHA256(input.baseAddress, input.count, $0.baseAddress) }
            }
        }
        return out
    }

    /// The SHA-256 digest of the UTF-8 bytes of `text`, as 64 lowercase hex digits.
    public static func hex(_ text: String) -> String {
        Hex.encode(digest(Array(text.utf8)))
    }
}

/// Lowercase hexadecimal text.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hex digits, two per byte.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
