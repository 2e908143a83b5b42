import Foundation
import Glibc
import Synchronization

/// A TCP hop on 127.0.0.1 between a store and the test PostgreSQL that loses a connection at a transaction's `COMMIT`,
/// as a failover or a network cut does: either after the server received the `COMMIT` and answered (the answer is
/// dropped, so the transaction is committed but the client never hears it), or before the server received it (the
/// server rolls the transaction back). It can also cut the connections open and refuse new ones, as a database that
/// went down does.
///
/// It can also hold everything back without closing anything, as a server that hangs does (`stall`): the connections
/// stay open and new ones are accepted, but no byte passes until it goes on.
///
/// It finds the `COMMIT` as libpq sends it for `PQexec("COMMIT")`: a simple-query message (`Q`, length 11, the text
/// and its NUL) in the bytes the client sends, so the URL it hands out turns TLS and GSS encryption off.
public final class PostgresCommitInterceptor: Sendable {
    /// What the hop does at the next `COMMIT` it sees.
    public enum CommitFault: Sendable {
        /// Passes everything through.
        case none
        /// Passes the `COMMIT` on, waits for the server's answer, drops it and ends both connections.
        case loseTheAnswer
        /// Ends both connections instead of passing the `COMMIT` on.
        case loseTheCommit
    }

    private struct State {
        var fault = CommitFault.none
        var refusing = false
        var stalled = false
        var commitsSeen = 0
        var links: [ObjectIdentifier: Link] = [:]
        /// `stop` was called: the listener is shut, and the accept thread closes it.
        var stopped = false
        /// The accept thread has closed the listener: its number may belong to another socket of the process now.
        var listenerClosed = false
    }

    private let listener: Int32
    private let upstreamPort: UInt16
    private let state = Mutex(State())
    /// The port the hop listens on.
    public let port: UInt16

    /// Starts listening; `upstreamPort` is the test PostgreSQL's port on 127.0.0.1.
    public init(upstreamPort: UInt16) throws {
        self.upstreamPort = upstreamPort
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0, errno == EINTR || errno == ECONNABORTED { continue }
                guard client >= 0 else { break }  // shut by `stop`
                serve(client)
            }
            // Only this thread closes the listener, and only once it no longer accepts on it: closed by `stop` while
            // this thread was between two accepts, the number could go to another test's listening socket, whose
            // connections this hop would then take and pass to the database.
            state.locked { state in
                state.listenerClosed = true
                close(listener)
            }
        }
    }

    /// `url` (the test database's) with its port replaced by this hop's, and encryption off.
    public func url(through url: String) -> String {
        let port = ":\(upstreamPort)/"
        return url.replacingOccurrences(of: port, with: ":\(self.port)/") + "?sslmode=disable&gssencmode=disable"
    }

    /// What to do at the next `COMMIT` (then back to `.none`).
    public func atNextCommit(_ fault: CommitFault) { state.locked { $0.fault = fault } }

    /// Whether new connections are closed at once, as a server still down refuses them.
    public func refuseConnections(_ refusing: Bool) { state.locked { $0.refusing = refusing } }

    /// Whether bytes are held back (both ways, open connections and new ones alike), as a server that hangs holds its
    /// answers: a client sees its statements sent and nothing come back. Held bytes pass on once it goes on.
    public func stall(_ stalled: Bool) { state.locked { $0.stalled = stalled } }

    /// Waits while the hop is stalled.
    private func waitWhileStalled() {
        while state.locked({ $0.stalled }) { usleep(5_000) }
    }

    /// Ends every connection open through the hop (both sides), as a database that went down does; with
    /// `refuseConnections(true)` first, the store cannot reach the database at all.
    public func cutOpenConnections() {
        for link in state.locked({ Array($0.links.values) }) { link.end() }
    }

    /// How many `COMMIT`s passed through or were lost.
    public var commitsSeen: Int { state.locked { $0.commitsSeen } }

    /// Starts counting `COMMIT`s again (after a store's migration, say).
    public func forgetCommitsSeen() { state.locked { $0.commitsSeen = 0 } }

    /// Stops accepting connections (those open stay until either end closes them). The accept thread, woken by the
    /// shut listener, closes it.
    public func stop() {
        state.locked { state in
            guard !state.stopped, !state.listenerClosed else { return }
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
        }
    }

    private func serve(_ client: Int32) {
        if state.locked({ $0.refusing }) {
            close(client)
            return
        }
        waitWhileStalled()
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(server)
            close(client)
            return
        }
        let link = Link(client: client, server: server)
        state.locked { $0.links[ObjectIdentifier(link)] = link }
        Thread.detachNewThread { [self] in pumpFromClient(link) }
        Thread.detachNewThread { [self] in pumpFromServer(link) }
    }

    /// Client to server: passes everything on, and applies the armed fault at a `COMMIT`.
    private func pumpFromClient(_ link: Link) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(link.client, &buffer, buffer.count)
            guard count > 0 else { break }
            let chunk = Array(buffer[0..<count])
            var fault = CommitFault.none
            if Self.containsCommit(chunk) {
                fault = state.locked { state in
                    state.commitsSeen += 1
                    defer { state.fault = .none }
                    return state.fault
                }
            }
            if fault == .loseTheCommit { break }
            if fault == .loseTheAnswer { link.dropAnswers() }
            waitWhileStalled()
            guard Self.writeAll(chunk, to: link.server) else { break }
        }
        ended(link)
    }

    /// Server to client: passes everything on until told to drop the next answer, then drops it and ends the link.
    private func pumpFromServer(_ link: Link) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(link.server, &buffer, buffer.count)
            guard count > 0, !link.dropsAnswers else { break }
            waitWhileStalled()
            guard Self.writeAll(Array(buffer[0..<count]), to: link.client) else { break }
        }
        ended(link)
    }

    /// A pump's end: ends the link, and forgets it once both pumps have ended.
    private func ended(_ link: Link) {
        if link.endPump() { state.locked { _ = $0.links.removeValue(forKey: ObjectIdentifier(link)) } }
    }

    /// `Q`, length 11 (itself, the text and its NUL), `COMMIT`, NUL.
    private static let commitMessage: [UInt8] = [0x51, 0, 0, 0, 11] + Array("COMMIT".utf8) + [0]

    private static func containsCommit(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= commitMessage.count else { return false }
        return (0...(bytes.count - commitMessage.count)).contains { bytes[$0..<($0 + commitMessage.count)].elementsEqual(commitMessage) }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// One proxied connection: both sockets, closed when both pumps have ended.
///
/// Shutting and closing happen under one lock, and a closed link is never shut again: `cutOpenConnections` may end a
/// link whose pumps are closing it, and a shutdown of a closed socket's number would cut whatever socket of the process
/// reused it (another test's listening socket, which then refuses connections, or its connection).
private final class Link: Sendable {
    let client: Int32
    let server: Int32
    private let state = Mutex((dropAnswers: false, pumpsEnded: 0, closed: false))

    init(client: Int32, server: Int32) {
        self.client = client
        self.server = server
    }

    var dropsAnswers: Bool { state.locked { $0.dropAnswers } }

    func dropAnswers() { state.locked { $0.dropAnswers = true } }

    /// Shuts both sockets, waking both pumps (which then end the link); the sockets stay open until both have.
    func end() {
        state.locked { state in
            guard !state.closed else { return }
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
        }
    }

    /// A pump ended: shuts both sockets, and closes them when this was the second pump. Returns whether it was.
    func endPump() -> Bool {
        state.locked { state -> Bool in
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
            state.pumpsEnded += 1
            guard state.pumpsEnded == 2 else { return false }
            state.closed = true
            close(client)
            close(server)
            return true
        }
    }
}
