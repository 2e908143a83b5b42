/// Which addresses outbound skill requests may reach (SSRF protection).
///
/// Refused unless explicitly allowed: private (10/8, 172.16/12, 192.168/16), shared CGNAT
/// (100.64/10), loopback (127/8, ::1), link-local (169.254/16, fe80::/10, cloud metadata lives
/// here), unique-local (fc00::/7), unspecified (0.0.0.0/8, ::), multicast, reserved and broadcast.
/// IPv4-mapped IPv6 addresses are judged by their IPv4 address.
public struct AddressPolicy: Sendable, Hashable {
    /// Allow every address (a skill config's `allow_private: true`).
    public var allowPrivate: Bool
    /// Ranges allowed even though they are refused by default.
    public var allowedNetworks: [IPNetwork]
    /// Host names (lowercase) that may resolve to refused ranges.
    public var allowedHosts: Set<String>

    /// The default: public addresses only.
    public static let publicOnly = AddressPolicy()

    public init(allowPrivate: Bool = false, allowedNetworks: [IPNetwork] = [], allowedHosts: Set<String> = []) {
        self.allowPrivate = allowPrivate
        self.allowedNetworks = allowedNetworks
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    }

    /// Builds a policy from config entries: each is a CIDR, an address, or a host name.
    public init(allowPrivate: Bool, exceptions: [String]) {
        var networks: [IPNetwork] = [], hosts: Set<String> = []
        for entry in exceptions {
            if let network = IPNetwork(entry) { networks.append(network) } else { hosts.insert(entry.lowercased()) }
        }
        self.init(allowPrivate: allowPrivate, allowedNetworks: networks, allowedHosts: hosts)
    }

    /// Why `address` (reached as `host`) is refused, or nil when it is allowed.
    public func refusal(for address: IPAddress, host: String) -> String? {
        if allowPrivate || allowedHosts.contains(host.lowercased()) { return nil }
        guard let kind = Self.restrictedKind(address) else { return nil }
        if allowedNetworks.contains(where: { $0.contains(address) || (address.embeddedIPv4.map($0.contains) ?? false) }) { return nil }
        return kind
    }

    /// The kind of restricted range `address` is in ("loopback", "private", ...), or nil for a public address.
    public static func restrictedKind(_ address: IPAddress) -> String? {
        if let v4 = address.embeddedIPv4 { return restrictedKind(v4) }
        for (network, kind) in address.isIPv4 ? v4Ranges : v6Ranges where network.contains(address) { return kind }
        return nil
    }

    private static let v4Ranges: [(IPNetwork, String)] = [
        ("0.0.0.0/8", "unspecified (\"this network\")"), ("10.0.0.0/8", "private"), ("100.64.0.0/10", "shared (carrier-grade NAT)"),
        ("127.0.0.0/8", "loopback"), ("169.254.0.0/16", "link-local"), ("172.16.0.0/12", "private"),
        ("192.0.0.0/24", "IETF protocol assignments"), ("192.168.0.0/16", "private"), ("198.18.0.0/15", "benchmarking"),
        ("224.0.0.0/4", "multicast"), ("240.0.0.0/4", "reserved"),
    ].map { (IPNetwork($0.0)!, $0.1) }

    private static let v6Ranges: [(IPNetwork, String)] = [
        ("::/128", "unspecified"), ("::1/128", "loopback"), ("fe80::/10", "link-local"), ("fc00::/7", "unique-local (private)"),
        ("ff00::/8", "multicast"), ("64:ff9b::/96", "NAT64 (may reach private IPv4)"), ("2001:db8::/32", "documentation"),
    ].map { (IPNetwork($0.0)!, $0.1) }
}
