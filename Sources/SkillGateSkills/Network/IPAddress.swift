#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A numeric IPv4 or IPv6 address (16 bytes for IPv6, 4 for IPv4).
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public var isIPv4: Bool { bytes.count == 4 }

    /// Parses the canonical text forms only: dotted-quad IPv4 with four decimal parts (no `0177.0.0.1`,
    /// no `2130706433`, no hex) and IPv6 (`::1`, `fe80::1`; brackets are stripped). Text with a `%`
    /// (an IPv6 zone id, or percent-encoding such as `1.1.1.1%2elocalhost`) is not an address.
    public init?(_ text: String) {
        var t = Substring(text)
        if t.hasPrefix("["), t.hasSuffix("]") { t = t.dropFirst().dropLast() }
        guard !t.contains("%") else { return nil }
        if t.contains(":") {
            var raw = in6_addr()
            guard inet_pton(AF_INET6, String(t), &raw) == 1 else { return nil }
            bytes = withUnsafeBytes(of: &raw) { Array($0) }
        } else {
            let parts = t.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4 else { return nil }
            var out: [UInt8] = []
            for p in parts {
                guard !p.isEmpty, p.count <= 3, p.allSatisfy({ $0.isASCII && $0.isNumber }),
                      p == "0" || !p.hasPrefix("0"), let v = UInt8(p) else { return nil }
                out.append(v)
            }
            bytes = out
        }
    }

    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`, also written `::ffff:7f00:1`) or
    /// IPv4-compatible (`::a.b.c.d`, deprecated) IPv6 address; `::` and `::1` have none.
    public var embeddedIPv4: IPAddress? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }) else { return nil }
        if bytes[10] == 0xFF, bytes[11] == 0xFF { return IPAddress(bytes: Array(bytes[12...])) }
        if bytes[10] == 0, bytes[11] == 0, bytes[12...].contains(where: { $0 != 0 }), !(bytes[12...14].allSatisfy { $0 == 0 } && bytes[15] == 1) {
            return IPAddress(bytes: Array(bytes[12...]))
        }
        return nil
    }

    public var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        var raw = in6_addr()
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// An address range in CIDR notation (`10.0.0.0/8`, `fd00::/8`); a bare address is a /32 or /128.
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    public let base: IPAddress
    public let prefixLength: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let base = IPAddress(parts[0]) else { return nil }
        let bits = base.bytes.count * 8
        if parts.count == 2 {
            guard let n = Int(parts[1]), (0...bits).contains(n) else { return nil }
            prefixLength = n
        } else {
            prefixLength = bits
        }
        self.base = base
    }

    public func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == base.bytes.count else { return false }
        var remaining = prefixLength
        for i in 0..<base.bytes.count where remaining > 0 {
            let take = min(8, remaining)
            let mask: UInt8 = take == 8 ? 0xFF : ~(0xFF >> UInt8(take))
            if address.bytes[i] & mask != base.bytes[i] & mask { return false }
            remaining -= take
        }
        return true
    }

    public var description: String { "\(base)/\(prefixLength)" }
}
