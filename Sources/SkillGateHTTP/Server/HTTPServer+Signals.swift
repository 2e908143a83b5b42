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

    /// How long a drain on a signal keeps idle keep-alive connections open for a last request (`shutdown`'s `linger`,
    /// at most the grace period): a client that sends its next request within it is answered (with `Connection: close`),
    /// where a connection closed under it would have failed that request. A process that stops for a restart
    /// (`reuse_port`) so hands its clients over to the next one (decision 0145).
    public static let signalDrainLinger = Duration.seconds(1)

    /// Waits for `watch`'s first signal, stops watching, then shuts down gracefully within `grace` (default
    /// `configuration.shutdownGrace`), keeping idle connections for `signalDrainLinger` at most. Returns the signal
    /// received and whether the drain was clean. Arm the watch before `start()`, so that a signal sent as soon as the
    /// server answers is caught (decision 0044).
    public func runUntil(_ watch: SignalWatch, grace: Duration? = nil) async -> Stop {
        let received = await watch.wait()
        watch.cancel()
        let deadline = grace ?? configuration.shutdownGrace
        let clean = await shutdown(deadline: deadline, linger: min(Self.signalDrainLinger, deadline))
        return Stop(signal: received, drainedCleanly: clean)
    }
}
