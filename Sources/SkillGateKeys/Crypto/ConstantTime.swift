import COpenSSL

/// Comparisons whose running time does not depend on where the inputs differ.
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes, compared with OpenSSL's `CRYPTO_memcmp`.
    ///
    /// Inputs of different lengths are unequal at once: the lengths compared here are those of
    /// fixed-size digests, so the length is never the secret.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in CRYPTO_memcmp(pa.baseAddress, pb.baseAddress, pa.count) == 0 }
        }
    }

    /// Whether the UTF-8 bytes of two strings are equal, compared in constant time.
    public static func equals(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                guard pa.count == pb.count else { return false }
                return pa.isEmpty || CRYPTO_memcmp(pa.baseAddress, pb.baseAddress, pa.count) == 0
            }
        }
    }
}
