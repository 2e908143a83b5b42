import Dispatch
import Foundation
import Synchronization

/// A parsed HTTP/1.1 response as a test sees it on the wire.
struct RawHTTPResponse {
    var status: Int
    var headers: [(String, String)]
    /// The body, de-chunked when the response was chunked.
    var body: [UInt8]
    var chunkCount: Int

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking TCP client for byte-exact HTTP tests. Blocking calls run on a thread of their own, never on the
/// cooperative pool the server's handlers need.
final class RawHTTPClient: @unchecked Sendable {
    /// -1 once closed. A class whose initializer throws after initializing every property is deinitialized,
    /// so the failure path must not close the descriptor as well: a second close could hit a descriptor
    /// another test opened meanwhile (it closed a parallel test's listening socket).
    private var fd: Int32
    private var buffer: [UInt8] = []
    /// The errno of the last receive that failed (ECONNRESET: the server reset the connection, and whatever it had sent
    /// and this client had not read yet was lost); 0 while none failed.
    private(set) var lastReceiveError: Int32 = 0
    /// The errno of the last send of `sendOnce` that failed; 0 while none failed.
    private(set) var lastSendError: Int32 = 0

    init(port: Int, receiveTimeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            fd = -1
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        var timeout = timeval(tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - Double(Int(receiveTimeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    /// The descriptor (for diagnostics); -1 once closed.
    var descriptor: Int32 { fd }

    /// The local port of the connection (for diagnostics), 0 when unknown.
    var localPort: Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        return ok ? Int(UInt16(bigEndian: address.sin_port)) : 0
    }

    static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            // A thread of its own: blocking a Dispatch or cooperative-pool thread could starve the
            // server's handler tasks on a small machine.
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Sends all of `bytes`, ignoring a failure (see `sendOnce`).
    func send(_ bytes: [UInt8]) { _ = sendOnce(bytes) }

    /// Sends all of `bytes`; false when a send failed (the server closed or reset the connection).
    func sendOnce(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { lastSendError = errno; return false }
            offset += n
        }
        return true
    }

    /// Closes the socket now (the server sees EOF).
    func closeNow() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Closes the socket with a reset (SO_LINGER 0): the server sees ECONNRESET, not an end of stream.
    func reset() {
        guard fd >= 0 else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        Glibc.close(fd)
        fd = -1
    }

    /// Ends the sending side only (`shutdown(SHUT_WR)`): the server sees EOF, and the client can still read.
    func halfClose() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes; false on EOF, error or timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 { lastReceiveError = errno }
        guard n > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    private func readLine() -> String? {
        while true {
            if let i = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<i])
                buffer.removeFirst(i + 1)
                if line.last == 0x0D { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            if !fill() { return nil }
        }
    }

    private func readExactly(_ count: Int) -> [UInt8]? {
        while buffer.count < count { if !fill() { return nil } }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Reads one response; nil when the connection closed (or timed out) before a complete response.
    func readResponse(onChunk: ((Int) -> Void)? = nil) -> RawHTTPResponse? {
        guard let statusLine = readLine() else { return nil }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var headers: [(String, String)] = []
        while let line = readLine(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = RawHTTPResponse(status: status, headers: headers, body: [], chunkCount: 0)
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while let sizeLine = readLine(), let size = Int(sizeLine, radix: 16) {
                if size == 0 { _ = readLine(); return response }
                guard let data = readExactly(size) else { return nil }
                response.body += data
                response.chunkCount += 1
                onChunk?(response.chunkCount)
                _ = readLine()
            }
            return nil
        }
        if let length = response.header("Content-Length").flatMap(Int.init) {
            guard let data = readExactly(length) else { return nil }
            response.body = data
            return response
        }
        while fill() {}
        response.body = buffer
        buffer = []
        return response
    }

    /// Reads only a response head (for HEAD requests) and returns its status code.
    func readResponseHead() -> Int? {
        guard let statusLine = readLine() else { return nil }
        while let line = readLine(), !line.isEmpty {}
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    /// Reads until the server closes the connection; returns what arrived and whether EOF was seen.
    func readUntilClosed() -> (bytes: [UInt8], closed: Bool) {
        while true {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { buffer.append(contentsOf: chunk[0..<n]); continue }
            if n < 0 { lastReceiveError = errno }
            let closed = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
            defer { buffer = [] }
            return (buffer, closed)
        }
    }
}
