import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's `RAND_bytes`.
public enum SecureRandom {
    /// Thrown when the system random generator cannot deliver (an unseeded or broken RNG).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String {
            "the system's secure random generator (OpenSSL RAND_bytes) failed; check that /dev/urandom "
                + "is available to the process and that libcrypto is intact, then retry"
        }
    }

    /// `count` random bytes.
    public static func bytes(_ count: Int) throws(Failure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard ok == 1 else { throw Failure() }
        return out
    }
}
