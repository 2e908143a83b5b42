import CEvent
import Glibc
import SkillGateCore

/// A socket the loop answered with a refusal and is closing while its client may still be sending (decision 0167).
///
/// Closing a socket whose receive buffer holds unread bytes, or that bytes reach after its close, makes the kernel reset
/// the connection. The client's next send then fails (a client that sends its head and body before it reads, as
/// Python's `http.client` does, gives up with ECONNRESET instead of reading the 413, 401 or 503 written a moment
/// before), and over a network the reset also discards whatever of the answer the server's kernel had not sent yet. So
/// the loop shuts the socket for writing (the client sees the answer end), reads and discards until the client's end of
/// stream, and closes it then, or when the linger's time or byte budget runs out. Loop thread only.
final class LingeringSocket {
    unowned let loop: EventLoop
    let fd: Int32
    /// Read readiness, with the linger's remaining time as its timeout.
    var event: OpaquePointer?
    /// When the linger ends whatever the client does (monotonic nanoseconds).
    let deadline: UInt64
    /// Bytes read and discarded so far.
    var discarded = 0

    init(loop: EventLoop, fd: Int32, deadline: UInt64) {
        self.loop = loop
        self.fd = fd
        self.deadline = deadline
    }

    var argument: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

extension EventLoop {
    /// Most bytes read from one lingering socket per readiness callback, so one fast sender cannot hold the loop.
    static let lingeringReadPerTurn = 256 * 1024

    /// Closes `fd`, whose answer was just written, lingering on it while its client may still be sending: at once when
    /// the loop already lingers on its maximum, or cannot watch the socket.
    func closeLingering(_ fd: Int32) {
        guard lingering.count < configuration.maxLingeringConnectionsPerLoop else {
            shared.counters.lingeringClosesCutShort.add(1, ordering: .relaxed)
            Glibc.close(fd)
            return
        }
        // Counted open before the client can see the answer end, so whoever sees that end sees the linger counted.
        shared.counters.lingeringConnections.add(1, ordering: .relaxed)
        guard Glibc.shutdown(fd, Int32(SHUT_WR)) == 0 else {
            // The connection is gone already (the client reset it): nothing to wait for.
            shared.counters.lingeringConnections.subtract(1, ordering: .relaxed)
            countLingeringEnd(cutShort: false)
            Glibc.close(fd)
            return
        }
        let deadline = MonotonicClock.nanoseconds() + configuration.lingeringCloseTime.clampedNanoseconds
        let socket = LingeringSocket(loop: self, fd: fd, deadline: deadline)
        guard let event = event_new(base, fd, Int16(EV_READ | EV_PERSIST), onLingeringSocketReadable, socket.argument) else {
            shared.counters.lingeringConnections.subtract(1, ordering: .relaxed)
            countLingeringEnd(cutShort: true)
            Glibc.close(fd)
            return
        }
        socket.event = event
        lingering[ObjectIdentifier(socket)] = socket
        watchLingering(socket)
    }

    /// The lingering socket is readable, or its time is up: discards what came, and closes it at the client's end, an
    /// error, or the end of the budget.
    func lingeringSocketReady(_ socket: LingeringSocket, timedOut: Bool) {
        guard !timedOut else { return finishLingering(socket, cutShort: true) }
        var readThisTurn = 0
        while readThisTurn < Self.lingeringReadPerTurn {
            let count = sg_ev_read(socket.fd, readBuffer.baseAddress, readBuffer.count)
            if count == 0 { return finishLingering(socket, cutShort: false) }
            if count < 0 {
                if count == -Int(EAGAIN) || count == -Int(EWOULDBLOCK) { break }
                return finishLingering(socket, cutShort: false)   // reset by the client: nothing more to wait for
            }
            readThisTurn += count
            socket.discarded += count
            if socket.discarded > configuration.lingeringCloseMaxBytes { return finishLingering(socket, cutShort: true) }
        }
        guard MonotonicClock.nanoseconds() < socket.deadline else { return finishLingering(socket, cutShort: true) }
        watchLingering(socket)
    }

    /// At stop: closes every socket the loop lingers on.
    func closeAllLingering() {
        for socket in Array(lingering.values) { finishLingering(socket, cutShort: true) }
    }

    /// (Re)arms the socket's event with the linger's remaining time as its timeout.
    private func watchLingering(_ socket: LingeringSocket) {
        guard let event = socket.event else { return }
        let now = MonotonicClock.nanoseconds()
        let remaining = socket.deadline > now ? socket.deadline - now : 0
        var timeout = sg_ev_timeval_ms(Int64(remaining / 1_000_000) + 1)
        event_add(event, &timeout)
    }

    private func finishLingering(_ socket: LingeringSocket, cutShort: Bool) {
        guard let event = socket.event else { return }
        event_free(event)
        socket.event = nil
        Glibc.close(socket.fd)
        lingering[ObjectIdentifier(socket)] = nil
        shared.counters.lingeringConnections.subtract(1, ordering: .relaxed)
        countLingeringEnd(cutShort: cutShort)
    }

    /// Counts how a linger ended, after the open count dropped and with release ordering: whoever reads the end counted
    /// (`HTTPServer.statistics` reads it first, acquiring) then reads the open count without it.
    private func countLingeringEnd(cutShort: Bool) {
        if cutShort {
            shared.counters.lingeringClosesCutShort.add(1, ordering: .releasing)
        } else {
            shared.counters.lingeringCloses.add(1, ordering: .releasing)
        }
    }
}
