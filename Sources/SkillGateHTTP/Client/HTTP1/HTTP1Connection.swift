import CEvent
import Glibc

/// One TCP connection of the own HTTP/1.1 client: its socket, the libevent event that watches it on the loop's base,
/// and the bytes read but not yet decoded. Carries one transfer at a time, then waits in the engine's pool. Loop thread
/// only; the engine's table retains it while its socket is open.
///
/// The socket is the client's own, so its event can sit on the loop's base directly: it is deleted before the socket
/// is closed, and libevent never sees a descriptor number reused behind its back (the reason libcurl's sockets need
/// an epoll set of their own on a lane, decision 0035).
final class HTTP1Connection {
    let fd: Int32
    /// Its endpoint's pool.
    let pool: HTTP1Pool
    /// Which of the endpoint's addresses it connects to (the next ones are tried when this one refuses).
    let addressIndex: Int
    unowned let engine: HTTP1Engine
    let openedAt: UInt64
    private var event: OpaquePointer?
    private(set) var watched: Int16 = 0
    /// The non-blocking connect has not completed yet.
    var connecting: Bool
    var transfer: HTTP1Transfer?
    /// Bytes of `transfer.outgoing` already written.
    var sentBytes = 0
    /// Bytes read but not decoded yet: an incomplete head or chunk line, or body a paused consumer has not taken.
    var unread: [UInt8] = []
    /// Requests it answered completely (a connection that served one is a reused one).
    var served = 0
    /// When it last went back to its pool (monotonic ns).
    var idleSince: UInt64 = 0
    private(set) var isOpen = true

    /// Wraps a connecting (or connected) socket; nil when libevent could not make its event (the socket is closed).
    init?(fd: Int32, pool: HTTP1Pool, addressIndex: Int, engine: HTTP1Engine, base: OpaquePointer,
          connecting: Bool, now: UInt64) {
        self.fd = fd
        self.pool = pool
        self.addressIndex = addressIndex
        self.engine = engine
        self.connecting = connecting
        openedAt = now
        event = event_new(base, fd, Int16(EV_PERSIST), http1SocketReady, Unmanaged.passUnretained(self).toOpaque())
        guard event != nil else {
            Glibc.close(fd)
            isOpen = false
            return nil
        }
    }

    deinit { close() }

    /// Watches the socket for `flags` (`EV_READ`, `EV_WRITE`, both, or 0 for nothing).
    func watch(_ flags: Int16) {
        guard isOpen, flags != watched, let event, let base = event_get_base(event) else { return }
        if watched != 0 { event_del(event) }
        watched = flags
        guard flags != 0 else { return }
        _ = event_assign(event, base, fd, flags | Int16(EV_PERSIST), http1SocketReady, Unmanaged.passUnretained(self).toOpaque())
        event_add(event, nil)
    }

    /// Frees the event, then closes the socket. Idempotent.
    func close() {
        guard isOpen else { return }
        isOpen = false
        if let event { event_free(event) }
        event = nil
        Glibc.close(fd)
        unread = []
    }
}

/// A socket of the own HTTP/1.1 client is ready.
func http1SocketReady(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let connection = Unmanaged<HTTP1Connection>.fromOpaque(argument).takeUnretainedValue()
    connection.engine.socketReady(connection, events: events)
}
