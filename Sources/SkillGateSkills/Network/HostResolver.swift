import Dispatch
import SkillGateCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Resolves host names with the system resolver (getaddrinfo), each lookup on a thread of its own, off the shared task
/// pool.
public struct HostResolver: Sendable {
    private let lookup: @Sendable (String) -> Result<[IPAddress], OutboundError>

    /// The system resolver.
    public init() { lookup = Self.lookup }

    /// A resolver answering with `lookup` (tests: fixed or changing answers).
    public init(lookup: @escaping @Sendable (String) -> Result<[IPAddress], OutboundError>) { self.lookup = lookup }

    /// Every address `host` resolves to (a numeric host is returned as is). `localhost` and names
    /// under `.localhost` are loopback without asking DNS, as libcurl treats them.
    public func resolve(_ host: String) async throws(OutboundError) -> [IPAddress] {
        if let literal = IPAddress(host) { return [literal] }
        if OutboundHost.isLocalhostName(host.lowercased()) { return Self.loopback }
        let lookup = self.lookup
        let result: Result<[IPAddress], OutboundError> = await withCheckedContinuation { continuation in
            // A thread of its own: a lookup can wait out the resolver's timeouts (seconds), and on Linux Dispatch's
            // global queue is the pool Swift's tasks run on (two threads on two cores), not a pool of its own (decision
            // 0159).
            let started = DetachedThread.start(name: "sg-resolve") { continuation.resume(returning: lookup(host)) }
            if !started { DispatchQueue.global().async { continuation.resume(returning: lookup(host)) } }
        }
        return try result.get()
    }

    static let loopback = [IPAddress("127.0.0.1")!, IPAddress("::1")!]

    static func lookup(_ host: String) -> Result<[IPAddress], OutboundError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, nil, &hints, &list)
        guard rc == 0, let list else {
            return .failure(OutboundError("cannot resolve host \"\(host)\" (\(String(cString: gai_strerror(rc)))); check the host name"))
        }
        defer { freeaddrinfo(list) }
        var out: [IPAddress] = []
        var node: UnsafeMutablePointer<addrinfo>? = list
        while let n = node {
            if let sa = n.pointee.ai_addr {
                if n.pointee.ai_family == AF_INET {
                    sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
                        var a = p.pointee.sin_addr
                        out.append(IPAddress(bytes: withUnsafeBytes(of: &a) { Array($0) }))
                    }
                } else if n.pointee.ai_family == AF_INET6 {
                    sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                        var a = p.pointee.sin6_addr
                        out.append(IPAddress(bytes: withUnsafeBytes(of: &a) { Array($0) }))
                    }
                }
            }
            node = n.pointee.ai_next
        }
        var unique: [IPAddress] = []
        for a in out where !unique.contains(a) { unique.append(a) }
        return unique.isEmpty ? .failure(OutboundError("host \"\(host)\" has no IPv4 or IPv6 address")) : .success(unique)
    }
}
