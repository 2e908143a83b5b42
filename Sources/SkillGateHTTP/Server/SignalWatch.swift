import Dispatch
import Glibc
import Synchronization

/// Catches process signals (SIGTERM, SIGINT, …) for a server's shutdown, and hands the first one to a waiting task.
///
/// `arm` returns only once every signal's Dispatch source is registered with the system, so a signal sent from then on
/// is caught. Arm before the server starts listening: a supervisor that stops the process as soon as it answers must
/// not find the signal ignored. (A source that is created and resumed is registered later, on Dispatch's own queue;
/// with the signal already set to `SIG_IGN`, one sent in between was lost, and `skillgate serve` kept serving after a
/// SIGTERM sent right after its first answer: 3 of 30 starts.) A signal sent while `arm` runs may still be lost; the
/// process is not serving yet then.
public final class SignalWatch: Sendable {
    /// The signals watched.
    public let signals: [Int32]
    private let waiter = FirstSignal()
    /// The Dispatch sources, cancelled by `cancel()` (Dispatch sources are not `Sendable`: kept behind the lock).
    private let sources: Mutex<[any DispatchSourceSignal]>

    private init(signals: [Int32]) {
        self.signals = signals
        sources = Mutex([])
    }

    /// Watches `signals`: their default actions become `SIG_IGN` (so they cannot kill the process), and each one
    /// delivered from when this returns is caught.
    public static func arm(_ signals: [Int32]) async -> SignalWatch {
        let watch = SignalWatch(signals: signals)
        let registered = DispatchGroup()
        watch.sources.locked { sources in
            for number in signals {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [waiter = watch.waiter] in waiter.deliver(number) }
                registered.enter()
                source.setRegistrationHandler { registered.leave() }
                source.resume()
                sources.append(source)
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            registered.notify(queue: .global()) { continuation.resume() }
        }
        return watch
    }

    /// The first signal delivered since `arm` (at once if one already was).
    public func wait() async -> Int32 {
        await waiter.wait()
    }

    /// Stops watching; the signals stay ignored.
    public func cancel() {
        sources.locked { sources in
            for source in sources { source.cancel() }
            sources.removeAll()
        }
    }
}

/// The first delivered signal, handed to one waiting task.
private final class FirstSignal: Sendable {
    private let state = Mutex<(signal: Int32?, waiter: CheckedContinuation<Int32, Never>?)>((nil, nil))

    func deliver(_ number: Int32) {
        let waiter = state.locked { s -> CheckedContinuation<Int32, Never>? in
            guard s.signal == nil else { return nil }
            s.signal = number
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: number)
    }

    func wait() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let already = state.locked { s -> Int32? in
                if let received = s.signal { return received }
                s.waiter = continuation
                return nil
            }
            if let already { continuation.resume(returning: already) }
        }
    }
}
