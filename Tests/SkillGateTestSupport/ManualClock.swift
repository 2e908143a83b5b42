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

    public var now: ContinuousClock.Instant { state.locked { $0.now } }
    public var sleeps: [Duration] { state.locked { $0.sleeps } }

    public func advance(by d: Duration) { state.locked { $0.now = $0.now + d } }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.locked {
            $0.sleeps.append(duration)
            $0.now = $0.now + duration
        }
    }
}

/// A deterministic generator of numbers in [0, 1) (SplitMix64).
public struct SeededUnitRandom {
    private var bits: SplitMix
    public init(seed: UInt64) { bits = SplitMix(seed: seed) }
    public mutating func next() -> Double {
        Double(bits.next() >> 11) / Double(1 << 53)
    }
}
