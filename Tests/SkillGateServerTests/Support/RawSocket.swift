import Foundation

/// A blocking loopback TCP client for gateway tests that need exact bytes on the wire (heads without
/// bodies, answers before a body was sent). Use it from a thread of its own (`RawSocket.run`).
final class RawSocket: @unchecked Sendable {
    /// -1 once closed. A class whose initializer throws after initializing every property is deinitialized,
    /// so the failure path must not close the descriptor as well: a second close could hit a descriptor
    /// another test opened meanwhile (it closed a parallel test's listening socket).
    private var fd: Int32

    init(port: Int, receiveTimeout: Double = 3) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            Glibc.close(fd)
            fd = -1
            throw POSIXError(.ECONNREFUSED)
        }
        var timeout = timeval(tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - Double(Int(receiveTimeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// Runs blocking socket work on a thread of its own, never on the cooperative pool the gateway needs.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.start()
        }
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Everything the server sends until it closes the connection or the receive timeout passes; and
    /// whether it closed.
    func readAll() -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { received += chunk[0..<n]; continue }
            return (String(decoding: received, as: UTF8.self), n == 0)
        }
    }

    /// What the server sends until `marker` has come `count` times (or the connection closed, or the receive timeout
    /// passed): for a client that reads part of a stream and leaves.
    func read(until marker: String, count: Int) -> String {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while String(decoding: received, as: UTF8.self).components(separatedBy: marker).count - 1 < count {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += chunk[0..<n]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Closes the connection now (a client that leaves).
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// One response with a `Content-Length` body on a keep-alive connection: its status, or nil when none came
    /// before the receive timeout.
    func readOneResponse() -> Int? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let text = String(decoding: received, as: UTF8.self)
            if let headEnd = text.range(of: "\r\n\r\n") {
                let head = text[..<headEnd.lowerBound].lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.count - text[..<headEnd.upperBound].utf8.count >= length {
                    return Int(text.split(separator: " ").dropFirst().first ?? "")
                }
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            received += chunk[0..<n]
        }
    }
}
