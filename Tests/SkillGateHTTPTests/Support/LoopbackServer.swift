#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A scripted HTTP/1.1 server on 127.0.0.1 for tests, on plain POSIX sockets: one accept thread
/// and one thread per connection. Each request is answered by a `LoopbackHandler` (see
/// `LoopbackHandler+Scripts.swift` for fixed responses, chunked streams with delays, a delayed
/// head, a stall mid-body, ...). It counts accepted connections and records requests and when
/// the client closed a connection.
final class LoopbackServer: Sendable {
    struct Request: Sendable {
        var method: String
        var target: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    private struct Stats {
        var acceptedConnections = 0
        var requests: [Request] = []
        var peerClosedAt: [UInt64] = []
        var bytesSent = 0
        var openFDs: Set<Int32> = []
        var stopped = false
        /// The accept thread has closed the listener (after `stop`, or an accept error): its number may belong to
        /// another socket of the process now, so `stop` must not shut it.
        var listenerClosed = false
    }

    let port: Int
    private let listenFD: Int32
    private let handler: LoopbackHandler
    private let stats = Mutex(Stats())

    convenience init(_ handler: LoopbackHandler) throws {
        let (fd, port) = try LoopbackSocket.listen(backlog: 128)
        self.init(handler, listeningOn: fd, port: port)
    }

    /// Serves a socket that is already bound and listening (the proxy stand-in's, bound before `main`).
    init(_ handler: LoopbackHandler, listeningOn fd: Int32, port: Int) {
        listenFD = fd
        self.port = port
        self.handler = handler
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port><path>`
    func url(_ path: String = "/") -> String { "http://127.0.0.1:\(port)\(path)" }

    var acceptedConnections: Int { stats.locked { $0.acceptedConnections } }
    var requests: [Request] { stats.locked { $0.requests } }
    var bytesSent: Int { stats.locked { $0.bytesSent } }
    var peerCloseTimes: [UInt64] { stats.locked { $0.peerClosedAt } }

    /// Waits (polling) until the client closed a connection; returns the monotonic time the server saw it.
    func firstPeerClose(within timeout: Duration) async -> UInt64? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let first = peerCloseTimes.first { return first }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }

    /// Closes the listener and every open connection.
    func stop() {
        // Under the lock: a connection thread removes its fd (taking the lock) before closing it,
        // so no fd shut down here can have been closed and reused by another socket meanwhile.
        // The listener is closed only by the accept thread, after this shutdown wakes it (and under the lock, so it
        // is not shut here once closed: an accept error can end that thread first).
        stats.locked { s in
            if s.stopped { return }
            s.stopped = true
            if !s.listenerClosed { shutdown(listenFD, Int32(SHUT_RDWR)) }
            for fd in s.openFDs { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    func recordPeerClose() { stats.locked { $0.peerClosedAt.append(LoopbackSocket.now()) } }
    func recordSent(_ count: Int) { stats.locked { $0.bytesSent += count } }
    var isStopped: Bool { stats.locked { $0.stopped } }

    private func acceptLoop() {
        defer {
            stats.locked { s in
                s.listenerClosed = true
                close(listenFD)
            }
        }
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            let accepted = stats.locked { s -> Bool in
                if s.stopped { return false }
                s.acceptedConnections += 1
                s.openFDs.insert(fd)
                return true
            }
            if !accepted { close(fd); return }
            let thread = Thread { [self] in serve(LoopbackConnection(fd: fd, server: self)) }
            thread.start()
        }
    }

    private func serve(_ connection: LoopbackConnection) {
        defer {
            stats.locked { _ = $0.openFDs.remove(connection.fd) }
            close(connection.fd)
        }
        while !connection.isClosed, let request = connection.readRequest() {
            stats.locked { $0.requests.append(request) }
            handler.respond(request, connection)
        }
    }
}

/// One accepted connection, used only by its own thread.
final class LoopbackConnection: @unchecked Sendable {
    let fd: Int32
    let server: LoopbackServer
    private var buffer: [UInt8] = []
    private(set) var isClosed = false

    init(fd: Int32, server: LoopbackServer) {
        self.fd = fd
        self.server = server
    }

    /// Writes bytes; false (and the connection marked closed) when the client is gone.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        if isClosed { return false }
        if LoopbackSocket.writeAll(fd, bytes) {
            server.recordSent(bytes.count)
            return true
        }
        isClosed = true
        server.recordPeerClose()
        return false
    }

    @discardableResult
    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Sleeps up to `milliseconds`, returning early (false) when the client closes meanwhile.
    @discardableResult
    func pause(milliseconds: Int) -> Bool {
        let deadline = LoopbackSocket.now() + UInt64(milliseconds) * 1_000_000
        while !isClosed {
            let now = LoopbackSocket.now()
            if now >= deadline { return true }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32((deadline - now) / 1_000_000) + 1)
            if ready > 0 && !fill() {
                markPeerClosed()
                return false
            }
            if server.isStopped { isClosed = true }
        }
        return false
    }

    /// Blocks until the client closes the connection (or `milliseconds` pass).
    func waitForPeerClose(milliseconds: Int = 10_000) { pause(milliseconds: milliseconds) }

    func setSendBuffer(bytes: Int32) {
        var size = bytes
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Closes the connection from the server side after this response.
    func closeAfterResponse() { isClosed = true }

    /// Reads one request (head and Content-Length body); nil when the client closed.
    func readRequest() -> LoopbackServer.Request? {
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 2).map(String.init)
                guard requestLine.count >= 2 else { return nil }
                let headers = lines.compactMap { line -> (name: String, value: String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
                while buffer.count < end + 4 + length {
                    if !fill() { markPeerClosed(); return nil }
                }
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return .init(method: requestLine[0], target: requestLine[1], headers: headers, body: body)
            }
            if !fill() {
                markPeerClosed()
                return nil
            }
        }
    }

    private func markPeerClosed() {
        if isClosed { return }
        isClosed = true
        server.recordPeerClose()
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Reads more bytes into the buffer; false on EOF or error.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
    }
}
