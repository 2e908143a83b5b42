import Foundation

/// A loopback TCP port nothing listens on: a socket bound to it that never listens and stays open for the rest of
/// the test process, so no test running in parallel can bind the port meanwhile (connections to it are refused).
public enum ClosedPort {
    /// Binds a fresh loopback port (never listening, never closed) and returns its number.
    public static func make() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw CocoaError(.fileReadUnknown) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw CocoaError(.fileReadUnknown)
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
