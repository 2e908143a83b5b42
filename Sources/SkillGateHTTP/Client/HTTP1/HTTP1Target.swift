import CSockets
import Glibc

/// Where a plain `http://` request goes when the own HTTP/1.1 client carries it (decision 0051): numeric addresses, a
/// port, the `Host` field and the request target. Built only for requests the own client gives exactly the meaning
/// libcurl would; anything else (`https://`, a name that needs DNS, a proxy, user info, percent-encoded or dotted
/// paths, a pin for another host) yields nil and goes to libcurl.
struct HTTP1Target {
    /// The connection pool's key: connections to these addresses and port serve any request for them.
    struct Endpoint: Hashable {
        var addresses: [String]
        var port: Int
    }

    var endpoint: Endpoint
    /// The URL's authority as written (`Host` field).
    var authority: Substring
    /// The origin-form request target: the path and query (`/v1/chat/completions?x=1`), never the fragment.
    var requestTarget: Substring

    init?(_ request: HTTPRequest, proxy: ProxyEnvironment = .current) {
        guard let url = ParsedPlainURL(request.url) else { return nil }
        authority = url.authority
        requestTarget = url.requestTarget
        if let pin = request.pin {
            // libcurl applies a pin only to its own host and port, and then bypasses proxies.
            guard HTTPHeaders.sameName(pin.host, String(url.host)), pin.port == url.port, !pin.addresses.isEmpty,
                  pin.addresses.allSatisfy({ sg_numeric_address_family($0) != 0 }) else { return nil }
            endpoint = Endpoint(addresses: pin.addresses, port: url.port)
        } else {
            let host = String(url.host)
            guard sg_numeric_address_family(host) != 0, proxy.goesDirect(to: host) else { return nil }
            endpoint = Endpoint(addresses: [host], port: url.port)
        }
    }
}

/// An absolute `http://` URL in the plain form the own client takes: `http://HOST[:PORT][/PATH][?QUERY][#FRAGMENT]`,
/// with printable ASCII only, no user info, no percent-encoding in the host, and no dot segments in the path.
struct ParsedPlainURL {
    /// The host without IPv6 brackets.
    var host: Substring
    var port: Int
    var authority: Substring
    var requestTarget: Substring

    init?(_ url: String) {
        let scheme = "http://"
        guard url.utf8.count > scheme.utf8.count,
              zip(url.utf8, scheme.utf8).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
        let rest = url.utf8.dropFirst(scheme.utf8.count)
        // Only visible ASCII, and none of the characters libcurl would re-encode or treat specially.
        guard rest.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x5C && $0 != 0x22 && $0 != 0x3C && $0 != 0x3E && $0 != 0x60
                && $0 != 0x7B && $0 != 0x7D && $0 != 0x7C && $0 != 0x5E }) else { return nil }
        let authorityEnd = rest.firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? rest.endIndex
        let authority = Substring(rest[rest.startIndex..<authorityEnd])
        guard !authority.isEmpty, !authority.utf8.contains(0x40), !authority.utf8.contains(0x25) else { return nil }
        var host: Substring
        var portText: Substring?
        if authority.utf8.first == 0x5B {   // [IPv6]
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { return nil }
                portText = after.dropFirst()
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
            }
        }
        guard !host.isEmpty else { return nil }
        var port = 80
        if let portText {
            guard !portText.isEmpty, portText.utf8.count <= 5, portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let value = Int(portText), value >= 1, value <= 65535 else { return nil }
            port = value
        }
        var target = Substring(rest[authorityEnd...])
        if let hash = target.firstIndex(of: "#") { target = target[..<hash] }
        if target.isEmpty { target = "/" } else if target.first == "?" { target = "/" + target }
        let path = target.firstIndex(of: "?").map { target[..<$0] } ?? target
        // libcurl removes dot segments (RFC 3986 5.2.4); such paths stay with it.
        guard !path.contains("/./"), !path.contains("/../"), !path.hasSuffix("/."), !path.hasSuffix("/..") else { return nil }
        self.host = host
        self.port = port
        self.authority = authority
        self.requestTarget = target
    }
}

/// The proxy variables libcurl would read for a plain `http://` request, read once per process: the environment is
/// set before the gateway starts, and changing it while other threads run is undefined behaviour anyway.
struct ProxyEnvironment: Sendable {
    /// `http_proxy`, else `all_proxy`, else `ALL_PROXY` (libcurl ignores upper-case `HTTP_PROXY`, see its docs).
    var proxy: String?
    /// `no_proxy`, else `NO_PROXY`.
    var noProxy: String?

    static let current = ProxyEnvironment(
        proxy: ["http_proxy", "all_proxy", "ALL_PROXY"].lazy.compactMap(Self.variable).first,
        noProxy: ["no_proxy", "NO_PROXY"].lazy.compactMap(Self.variable).first)

    private static func variable(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Whether libcurl would connect to the numeric `host` directly: no proxy, or `no_proxy` is `*` or lists exactly
    /// this address. Any other `no_proxy` form (a CIDR range, a domain) is left to libcurl: nil-safe, never wrong.
    func goesDirect(to host: String) -> Bool {
        guard proxy != nil else { return true }
        guard let noProxy else { return false }
        for entry in noProxy.split(separator: ",") {
            var item = entry.drop { $0 == " " }
            while item.last == " " { item = item.dropLast() }
            if item == "*" || item == host || item == "[\(host)]" { return true }
        }
        return false
    }
}
