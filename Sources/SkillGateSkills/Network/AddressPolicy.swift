/// Which addresses outbound skill requests may reach (SSRF protection).
///
/// Refused unless explicitly allowed: private (10/8, 172.16/12, 192.168/16), shared CGNAT
/// (100.64/10), loopback (127/8, ::1), link-local (169.254/16, fe80::/10, cloud metadata lives
/// here), unique-local (fc00::/7), site-local (fec0::/10), unspecified (0.0.0.0/8, ::), IETF
/// protocol assignments (192.0.0/24, 2001::/23 with Teredo), documentation, benchmarking,
/// multicast, reserved and broadcast, the IPv4-carrying transition prefixes (NAT64 64:ff9b::/96
/// and 64:ff9b:1::/48, 6to4 2002::/16), and every IPv6 address outside global unicast 2000::/3.
/// IPv4-mapped and IPv4-compatible IPv6 addresses are judged by their IPv4 address.
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
        if !address.isIPv4, !globalUnicast.contains(address) { return "reserved (outside global unicast 2000::/3)" }
        return nil
    }

    /// IANA IPv4 Special-Purpose Address Registry, the ranges that are not globally reachable (plus
    /// documentation ranges and the deprecated 6to4 relay anycast). Most specific first.
    private static let v4Ranges: [(IPNetwork, String)] = [
        ("0.0.0.0/8", "unspecified (\"this network\")"), ("10.0.0.0/8", "private"), ("100.64.0.0/10", "shared (carrier-grade NAT)"),
        ("127.0.0.0/8", "loopback"), ("169.254.0.0/16", "link-local"), ("172.16.0.0/12", "private"),
        ("192.0.0.0/24", "IETF protocol assignments"), ("192.0.2.0/24", "documentation (TEST-NET-1)"),
        ("192.88.99.0/24", "6to4 relay anycast (deprecated)"), ("192.168.0.0/16", "private"), ("198.18.0.0/15", "benchmarking"),
        ("198.51.100.0/24", "documentation (TEST-NET-2)"), ("203.0.113.0/24", "documentation (TEST-NET-3)"),
        ("224.0.0.0/4", "multicast"), ("255.255.255.255/32", "broadcast"), ("240.0.0.0/4", "reserved"),
    ].map { (IPNetwork($0.0)!, $0.1) }

    /// IANA IPv6 Special-Purpose Address Registry, the ranges that are not globally reachable, and
    /// the transition prefixes that carry an IPv4 address (NAT64, 6to4, Teredo: refused whole,
    /// decision 0023). Anything else outside 2000::/3 is refused as reserved.
    private static let v6Ranges: [(IPNetwork, String)] = [
        ("::/128", "unspecified"), ("::1/128", "loopback"),
        ("64:ff9b::/96", "NAT64 (may reach private IPv4)"), ("64:ff9b:1::/48", "local-use NAT64 (may reach private IPv4)"),
        ("100::/64", "discard-only"), ("2001::/23", "IETF protocol assignments (Teredo 2001::/32 among them)"),
        ("2001:db8::/32", "documentation"), ("2002::/16", "6to4 (tunnels to an embedded IPv4 address)"), ("3fff::/20", "documentation"),
        ("5f00::/16", "SRv6 segment identifiers"), ("fc00::/7", "unique-local (private)"), ("fe80::/10", "link-local"),
        ("fec0::/10", "site-local (deprecated)"), ("ff00::/8", "multicast"),
    ].map { (IPNetwork($0.0)!, $0.1) }

    private static let globalUnicast = IPNetwork("2000::/3")!
}
