import Synchronization
import SkillGateRouting

/// Test doubles shared by several test targets (one copy instead of one per target).

/// A clock tests advance by hand; `sleep` advances it at once and records the wait.
public final class ManualClock: ResilienceClock {
    private struct State {
        var now = ContinuousClock.now
        var sleeps: [Duration] = []
    }
    private let state = Mutex(State())

    public init() {}

    public var now: ContinuousClock.Instant { state.withLock { $0.now } }
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    public func advance(by d: Duration) { state.withLock { $0.now = $0.now + d } }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.sleeps.append(duration)
            $0.now = $0.now + duration
        }
    }
}

/// A deterministic generator of numbers in [0, 1) (SplitMix64).
public struct SeededUnitRandom {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
