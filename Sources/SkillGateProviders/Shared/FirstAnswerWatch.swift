import Dispatch
import SkillGateCore
import Synchronization

/// Stops upstream calls that have not begun to answer by their deadline (decision 0156): a stream whose first event has
/// not come (a head and then silence, or only keep-alive comments or pings), and any call still queued for a pooled
/// connection. The transfer's own timeouts start when the request is sent and count any byte (a head, a comment) as
/// an answer; this counts from when the call was made, and only an event (or a whole answer) ends it.
///
/// One thread for the process, asleep until the earliest deadline; a call registers when it is made and is let go when
/// its answer begins (a lock and a table entry each way). With nothing registered the thread waits without a timeout,
/// so an idle gateway is not woken.
final class FirstAnswerWatch: Sendable {
    /// The process's watch, its thread started on first use.
    static let shared = FirstAnswerWatch()

    /// A registered call.
    struct Ticket: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextId: UInt64 = 0
        /// The deadline the thread sleeps until (nil: without a timeout).
        var wakeAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let started = Mutex(false)

    /// Calls `expire` at `deadline` unless `release`d before (once, on the watch's thread: keep it short).
    func watch(until deadline: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void) -> Ticket {
        startIfNeeded()
        let (ticket, signal) = state.locked { s -> (Ticket, Bool) in
            s.nextId &+= 1
            s.entries[s.nextId] = Entry(deadline: deadline, expire: expire)
            let earlier = s.wakeAt.map { deadline < $0 } ?? true
            if earlier { s.wakeAt = deadline }
            return (Ticket(id: s.nextId), earlier)
        }
        if signal { wake.signal() }
        return ticket
    }

    /// Lets a call go: its answer began, or it ended. Idempotent.
    func release(_ ticket: Ticket) {
        state.locked { _ = $0.entries.removeValue(forKey: ticket.id) }
    }

    private func startIfNeeded() {
        let start = started.locked { started -> Bool in
            defer { started = true }
            return !started
        }
        if start { _ = DetachedThread.start(name: "sg-first-answer") { [self] in run() } }
    }

    private func run() {
        while true {
            let wakeAt = state.locked { $0.wakeAt }
            if let wakeAt {
                let now = ContinuousClock.now
                if wakeAt > now {
                    let nanoseconds = (wakeAt - now).components
                    let wait = Int(nanoseconds.seconds) * 1_000_000_000 + Int(nanoseconds.attoseconds / 1_000_000_000)
                    _ = wake.wait(timeout: .now() + .nanoseconds(wait))
                }
            } else {
                wake.wait()
            }
            let now = ContinuousClock.now
            let due = state.locked { s -> [@Sendable () -> Void] in
                var due: [@Sendable () -> Void] = []
                var earliest: ContinuousClock.Instant?
                for (id, entry) in s.entries {
                    if entry.deadline <= now {
                        due.append(entry.expire)
                        s.entries.removeValue(forKey: id)
                    } else if earliest.map({ entry.deadline < $0 }) ?? true {
                        earliest = entry.deadline
                    }
                }
                s.wakeAt = earliest
                return due
            }
            for expire in due { expire() }
        }
    }
}
