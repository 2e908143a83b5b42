#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A minimal HTTP/1.1 keep-alive server for the client benchmark: one thread per connection,
/// answers every request head (no request bodies) with the same small response.
final class BenchKeepAliveServer: Sendable {
    static let response = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}".utf8)

    let port: Int
    private let listenFD: Int32
    /// `listenerClosed`: the accept thread closed the listener (at `stop`, or on an accept error), so `stop` must not
    /// shut its number, which another socket may hold by then (decision 0169).
    private let state = Mutex<(accepted: Int, stopped: Bool, listenerClosed: Bool)>((0, false, false))

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = benchLoopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 64) == 0 else { throw BenchError("could not listen on 127.0.0.1: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listenFD = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    var acceptedConnections: Int { state.locked { $0.accepted } }

    func stop() {
        state.locked { s in
            if s.stopped { return }
            s.stopped = true
            if !s.listenerClosed { shutdown(listenFD, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        defer {
            state.locked { s in
                s.listenerClosed = true
                close(listenFD)
            }
        }
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 { if errno == EINTR { continue }; return }
            state.locked { $0.accepted += 1 }
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            Thread { Self.serve(fd) }.start()
        }
    }

    private static func serve(_ fd: Int32) {
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var filled = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + filled, $0.count - filled, 0) }
            if n <= 0 { return }
            filled += n
            // Answer every complete request head in the buffer.
            var consumed = 0
            var i = 0
            while i + 3 < filled {
                if buffer[i] == 13, buffer[i + 1] == 10, buffer[i + 2] == 13, buffer[i + 3] == 10 {
                    let sent = response.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if sent != response.count { return }
                    consumed = i + 4
                    i += 4
                } else {
                    i += 1
                }
            }
            if consumed > 0 {
                buffer.withUnsafeMutableBytes { b in
                    _ = memmove(b.baseAddress!, b.baseAddress! + consumed, filled - consumed)
                }
                filled -= consumed
            }
            if filled == buffer.count { return }
        }
    }
}

/// The reference: a blocking keep-alive socket client that writes a request and reads the known
/// fixed-size response.
final class BenchRawClient {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = benchLoopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw BenchError("raw client could not connect: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    func roundTrip(_ request: [UInt8]) throws {
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { throw BenchError("raw client send failed: errno \(errno)") }
        var received = 0
        let expected = BenchKeepAliveServer.response.count
        while received < expected {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw BenchError("raw client recv failed: errno \(errno)") }
            received += n
        }
    }

    func close() { _ = Glibc.close(fd) }
}

func benchLoopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
}

/// The cost floor of any async client with a dedicated I/O thread: one round trip from a task to
/// a waiting thread and back through a continuation, with no I/O at all.
final class BenchThreadHop: Sendable {
    private let pending = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let signal = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(true)

    init() {
        Thread { [self] in
            while true {
                signal.wait()
                guard running.load(ordering: .acquiring) else { return }
                pending.locked { c in c.take() }?.resume()
            }
        }.start()
    }

    func roundTrip() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            pending.locked { $0 = c }
            signal.signal()
        }
    }

    func stop() {
        running.store(false, ordering: .releasing)
        signal.signal()
    }
}
