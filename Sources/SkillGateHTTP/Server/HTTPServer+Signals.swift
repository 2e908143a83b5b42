import FoundationEssentials
import Glibc

extension HTTPServer {
    /// How a server run by `runUntilSignal` ended.
    public struct Stop: Sendable, Hashable {
        /// The signal that stopped it.
        public var signal: Int32
        /// Whether every in-flight request finished within the grace period (none was cut off).
        public var drainedCleanly: Bool

        /// A stop by `signal`, clean or not.
        public init(signal: Int32, drainedCleanly: Bool) {
            self.signal = signal
            self.drainedCleanly = drainedCleanly
        }

        /// The process exit status this stop calls for: 0 after a clean drain, 1 when requests were cut
        /// off. A stop that was asked for is a success, so the signal's number is not the status.
        public var exitStatus: Int32 { drainedCleanly ? 0 : 1 }
    }

    /// Waits for one of `signals` (default SIGTERM and SIGINT), then shuts down gracefully within `grace`
    /// (default `configuration.shutdownGrace`). Returns the signal received and whether the drain was clean.
    ///
    /// The signals are watched only from this call on: a process that must not miss one sent as soon as it serves
    /// arms a `SignalWatch` before `start()` and calls `runUntil(_:grace:)`.
    public func runUntilSignal(_ signals: [Int32] = [SIGTERM, SIGINT], grace: Duration? = nil) async -> Stop {
        await runUntil(await SignalWatch.arm(signals), grace: grace)
    }

    /// Waits for `watch`'s first signal, stops watching, then shuts down gracefully within `grace` (default
    /// `configuration.shutdownGrace`). Returns the signal received and whether the drain was clean.
    public func runUntil(_ watch: SignalWatch, grace: Duration? = nil) async -> Stop {
        let received = await watch.wait()
        watch.cancel()
        let clean = await shutdown(deadline: grace ?? configuration.shutdownGrace)
        return Stop(signal: received, drainedCleanly: clean)
    }
}
