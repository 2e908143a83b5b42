import Synchronization

/// Keeps the event loops' shares of open connections even when they all accept on one listening socket.
///
/// Every loop's epoll watches the shared socket, and the loop that wakes first accepts everything queued: a burst
/// of keep-alive connections (a client pool, a proxy's upstream connections, a benchmark's 32) could all land on
/// one loop and leave the other cores idle for the connections' whole life (measured: one of two loops served all
/// 32 connections in about half the runs). After each accept a loop asks `shouldPause`; when it holds more than
/// `slack` connections above the least loaded loop (and at least `minimumToPause`), it stops accepting for `pause` (`EventLoop.pauseAccepting`),
/// and the others, woken by the same socket, take the connections still queued. Only for a shared socket: with
/// `reusePort` the kernel has already chosen each connection's socket.
final class AcceptBalance: Sendable {
    /// How long a loop that is ahead stops accepting (connections wait in the backlog meanwhile).
    static let pause: Duration = .milliseconds(1)
    /// How many connections a loop may hold above the least loaded one before it pauses.
    static let slack = 1
    /// Below this many open connections a loop never pauses: a few connections cost a loop little, and the balance
    /// matters for the many long-lived ones.
    static let minimumToPause = 4

    private let open: Mutex<[Int]>
    /// False with a single loop or `reusePort`: nothing to balance.
    let enabled: Bool

    init(loops: Int, sharedSocket: Bool) {
        open = Mutex(Array(repeating: 0, count: loops))
        enabled = loops > 1 && sharedSocket
    }

    /// Records that loop `index` holds `count` open connections; true when it should stop accepting for a moment.
    func update(loop index: Int, openConnections count: Int) -> Bool {
        guard enabled else { return false }
        return open.locked { open in
            open[index] = count
            return count >= Self.minimumToPause && count > (open.min() ?? 0) + Self.slack
        }
    }

    /// Open connections per loop, as last recorded (for tests).
    var openConnections: [Int] { open.locked { $0 } }
}
