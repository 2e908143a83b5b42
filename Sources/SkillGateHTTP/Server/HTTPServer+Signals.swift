import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

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
    /// The signals' default actions are replaced by `SIG_IGN` so they cannot kill the process meanwhile.
    public func runUntilSignal(_ signals: [Int32] = [SIGTERM, SIGINT], grace: Duration? = nil) async -> Stop {
        let waiter = SignalWaiter()
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { waiter.deliver(number) }
            source.resume()
            sources.append(source)
        }
        let received = await waiter.wait()
        for source in sources { source.cancel() }
        let clean = await shutdown(deadline: grace ?? configuration.shutdownGrace)
        return Stop(signal: received, drainedCleanly: clean)
    }
}

/// The first delivered signal, handed to one waiting task.
private final class SignalWaiter: Sendable {
    private let state = Mutex<(signal: Int32?, waiter: CheckedContinuation<Int32, Never>?)>((nil, nil))

    func deliver(_ number: Int32) {
        let waiter = state.withLock { s -> CheckedContinuation<Int32, Never>? in
            guard s.signal == nil else { return nil }
            s.signal = number
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: number)
    }

    func wait() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let already = state.withLock { s -> Int32? in
                if let received = s.signal { return received }
                s.waiter = continuation
                return nil
            }
            if let already { continuation.resume(returning: already) }
        }
    }
}
