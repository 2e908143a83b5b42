#if canImport(Glibc)
import Glibc
#endif

/// Plain POSIX socket helpers for the loopback test servers (127.0.0.1 only, ephemeral ports).
enum LoopbackSocket {
    /// Monotonic nanoseconds (same clock in tests and servers).
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Opens a listening socket on 127.0.0.1 with an ephemeral port; returns (fd, port).
    static func listen(backlog: Int32) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LoopbackError("socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            close(fd)
            throw LoopbackError("bind/listen on 127.0.0.1 failed: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port on 127.0.0.1 that refuses connections: bound without listening, so no other test can
    /// take it while the caller keeps `fd` open. Returns (fd, port).
    static func refusingPort() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LoopbackError("socket() failed: errno \(errno)") }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(fd)
            throw LoopbackError("bind on 127.0.0.1 failed: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A blocking client connection to 127.0.0.1:port (nil when it does not complete in `timeoutMs`).
    static func connect(port: Int, timeoutMs: Int32) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        var address = loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 {
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if errno != EINPROGRESS || poll(&p, 1, timeoutMs) != 1 { close(fd); return nil }
        }
        _ = fcntl(fd, F_SETFL, flags)
        return fd
    }

    static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Writes all bytes; false when the peer is gone.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { if n < 0 && errno == EINTR { continue }; return false }
            offset += n
        }
        return true
    }
}

struct LoopbackError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A listener whose accept queue is full: connecting to it never completes (for connect timeouts).
final class SaturatedListener: @unchecked Sendable {
    let port: Int
    private let listenFD: Int32
    private var fillers: [Int32] = []

    init() throws {
        (listenFD, port) = try LoopbackSocket.listen(backlog: 0)
        // Fill the accept queue; the first connect that does not complete proves it is full.
        for _ in 0..<8 {
            if let fd = LoopbackSocket.connect(port: port, timeoutMs: 100) { fillers.append(fd) } else { return }
        }
        throw LoopbackError("could not saturate the accept queue of a backlog-0 listener")
    }

    deinit {
        for fd in fillers { close(fd) }
        close(listenFD)
    }
}
