import Synchronization

/// A fast source of uniform numbers in [0, 1) for jitter and weighted balancing: SplitMix64 under a
/// Mutex, seeded once from the system generator. Not for secrets; the system generator costs
/// about a microsecond per call, this a few nanoseconds.
public final class UnitRandom: Sendable {
    private let state: Mutex<UInt64>

    /// A generator seeded from `SystemRandomNumberGenerator` (or `seed`, for reproducible tests).
    public init(seed: UInt64? = nil) {
        var system = SystemRandomNumberGenerator()
        state = Mutex(seed ?? system.next())
    }

    /// The next number in [0, 1).
    public func next() -> Double {
        let z0 = state.locked { s -> UInt64 in
            s &+= 0x9E37_79B9_7F4A_7C15
            return s
        }
        var z = (z0 ^ (z0 >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(UInt64(1) << 53)
    }
}
