#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Accepts one connection on 127.0.0.1, records the first bytes the client sends (for example a
/// TLS ClientHello), then closes the connection without answering.
final class FirstBytesRecorder: Sendable {
    let port: Int
    private let listenFD: Int32
    private let captured = Mutex<[UInt8]?>(nil)

    init(maxBytes: Int = 4096) throws {
        (listenFD, port) = try LoopbackSocket.listen(backlog: 4)
        let fd = listenFD
        Thread { [self] in
            let connection = accept(fd, nil, nil)
            if connection >= 0 { _ = fcntl(connection, F_SETFD, FD_CLOEXEC) }
            close(fd)
            guard connection >= 0 else { return }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            // Read until the client stops sending for 200 ms (it waits for a reply) or closes.
            while bytes.count < maxBytes {
                var p = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 200) == 1 else { break }
                let n = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                bytes += chunk[0..<n]
            }
            captured.locked { $0 = bytes }
            close(connection)
        }.start()
    }

    /// The recorded bytes once the connection was closed (nil until then).
    var bytes: [UInt8]? { captured.locked { $0 } }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs as a contiguous run.
    func containsRun(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return false }
        for start in 0...(count - needle.count) where self[start] == needle[0] && Array(self[start..<(start + needle.count)]) == needle {
            return true
        }
        return false
    }
}
