import Glibc

/// A loopback port that refuses connections for as long as this value lives: a socket bound to it that never
/// listens. Stopping a server instead would free its port for any test running in parallel to bind.
public final class UnlistenedPort: @unchecked Sendable {
    /// The refusing port.
    public let port: Int
    private let fd: Int32

    /// Binds a fresh loopback port without listening on it.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UnlistenedPortError() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw UnlistenedPortError()
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}

/// The socket could not be made or bound.
public struct UnlistenedPortError: Error {}
