import Synchronization

/// Request ids (`req_` + 24 lowercase hex digits) without a syscall per request.
///
/// Ids must be unique and should not reveal how many requests a gateway served; they are not
/// secrets (they are echoed in `x-request-id` and logs). So: a 96-bit value from a process-wide
/// counter run through SplitMix64's finaliser (a bijection, so no two counters collide) keyed with
/// a per-process random seed, and a second random word per process. Drawing from the system
/// generator instead cost two `getrandom` calls per request.
enum RequestIdGenerator {
    private static let seed: (UInt64, UInt32) = {
        var system = SystemRandomNumberGenerator()
        return (system.next(), system.next())
    }()
    private static let counter = Atomic<UInt64>(0)
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    /// What every id starts with.
    static let prefix = "req_"

    /// The next id.
    static func next() -> String {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let high = mix(n &+ seed.0)
        let low = UInt32(truncatingIfNeeded: mix(n ^ UInt64(seed.1) << 32)) ^ seed.1
        return String(unsafeUninitializedCapacity: 28) { out in
            for (i, c) in prefix.utf8.enumerated() { out[i] = c }
            for i in 0..<16 { out[4 + i] = hexDigits[Int((high >> UInt64(60 - 4 * i)) & 0xF)] }
            for i in 0..<8 { out[20 + i] = hexDigits[Int((low >> UInt32(28 - 4 * i)) & 0xF)] }
            return 28
        }
    }

    /// SplitMix64's output function: a bijection on 64-bit values that scatters neighbouring inputs.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
