import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

extension HTTPServer {
    /// Waits for one of `signals` (default SIGTERM and SIGINT), then shuts down gracefully within `grace`
    /// (default `configuration.shutdownGrace`). Returns the signal received; the exit code is the caller's.
    ///
    /// The signals' default actions are replaced by `SIG_IGN` so they cannot kill the process meanwhile.
    public func runUntilSignal(_ signals: [Int32] = [SIGTERM, SIGINT], grace: Duration? = nil) async -> Int32 {
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
        await shutdown(deadline: grace ?? configuration.shutdownGrace)
        return received
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
