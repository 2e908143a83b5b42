extension HTTPServer {
    /// How a server run by `runUntil(_:grace:)` ended.
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

    /// Waits for `watch`'s first signal, stops watching, then shuts down gracefully within `grace` (default
    /// `configuration.shutdownGrace`). Returns the signal received and whether the drain was clean. Arm the watch
    /// before `start()`, so that a signal sent as soon as the server answers is caught (decision 0044).
    public func runUntil(_ watch: SignalWatch, grace: Duration? = nil) async -> Stop {
        let received = await watch.wait()
        watch.cancel()
        let clean = await shutdown(deadline: grace ?? configuration.shutdownGrace)
        return Stop(signal: received, drainedCleanly: clean)
    }
}
