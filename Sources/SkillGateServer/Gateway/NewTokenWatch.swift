import Dispatch
import SkillGateState
import Synchronization

/// Lists the tokens created elsewhere while the gateway runs (another instance on PostgreSQL, `skillgate tokens create`
/// beside it) every `interval`, on a queue of its own, so their first requests are looked up with the known clients'
/// rather than queued behind made-up tokens (`TokenService.learnNewTokens`, decision 0088).
///
/// A store that cannot be read is logged once when the listing starts failing and once when it works again, not at
/// every tick; meanwhile such tokens are learnt when first accepted, and the next listing that works looks back to the
/// last one that did.
final class NewTokenWatch: Sendable {
    private let tokens: TokenService
    private let interval: Duration
    private let report: @Sendable (_ message: String, _ level: String) -> Void
    private let queue = DispatchQueue(label: "skillgate.tokens.new")
    /// The timer while running (a Dispatch source is not Sendable; it is only touched under this lock).
    private let timer = Mutex<(any DispatchSourceTimer)?>(nil)
    /// Whether the last listing failed (touched on `queue` only, kept in a Mutex for Sendable).
    private let failing = Mutex(false)

    /// - Parameters:
    ///   - interval: the time between two listings (the gateway's is `defaultInterval`).
    ///   - report: where a listing that starts failing, or works again, is told (the request log).
    init(tokens: TokenService, interval: Duration = NewTokenWatch.defaultInterval,
         report: @escaping @Sendable (_ message: String, _ level: String) -> Void) {
        self.tokens = tokens
        self.interval = interval
        self.report = report
    }

    /// The gateway's interval: the token cache's lifetime, so a token created elsewhere is treated like a known one
    /// about as soon as a revocation elsewhere is seen.
    static let defaultInterval: Duration = .seconds(2)

    /// Starts listing, the first time one `interval` from now. Does nothing when already started.
    func start() {
        timer.locked { timer in
            guard timer == nil else { return }
            let source = DispatchSource.makeTimerSource(queue: queue)
            let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
            source.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                            leeway: .nanoseconds(nanoseconds / 10))
            source.setEventHandler { [self] in listOnce() }
            source.resume()
            timer = source
        }
    }

    /// Stops listing; a listing under way finishes.
    func stop() {
        timer.locked { timer in
            timer?.cancel()
            timer = nil
        }
    }

    /// One listing, with the failure and recovery told once each.
    func listOnce() {
        let problem: (any Error)?
        do {
            try tokens.learnNewTokens()
            problem = nil
        } catch {
            problem = error
        }
        let changed = failing.locked { failing in
            defer { failing = problem != nil }
            return failing != (problem != nil)
        }
        guard changed else { return }
        if let problem {
            report("could not list the tokens created since the last look (\(problem)); a token created elsewhere is known once it is first accepted. Check the state database; retrying every \(interval)", "warn")
        } else {
            report("listing the tokens created elsewhere works again", "info")
        }
    }
}
