import CSockets
import Glibc

/// Where a plain `http://` request goes when the own HTTP/1.1 client carries it (decision 0051): numeric addresses, a
/// port, the `Host` field and the request target. Built only for requests the own client gives exactly the meaning
/// libcurl would; anything else (`https://`, a name that needs DNS, a proxy, user info, percent-encoded hosts, dotted
/// paths, a pin for another host) yields nil and goes to libcurl.
///
/// Parsed at the byte level, once per request: the `Host` field and the request target are offsets into the URL's
/// UTF-8, copied straight into the request head.
struct HTTP1Target {
    /// The connection pool's key: connections to these addresses and port serve any request for them.
    struct Endpoint: Hashable {
        /// The numeric addresses, tried in order, joined by commas (one string: the key is hashed once per request).
        var addressList: String
        var port: Int

        init(addresses: [String], port: Int) {
            addressList = addresses.joined(separator: ",")
            self.port = port
        }

        init(address: String, port: Int) {
            addressList = address
            self.port = port
        }

        var addresses: [String] { addressList.split(separator: ",").map(String.init) }

        /// The addresses and port as an error message names them: `127.0.0.1, ::1 port 8080`.
        var described: String { "\(addresses.joined(separator: ", ")) port \(port)" }
    }

    var endpoint: Endpoint
    /// The absolute URL the offsets below point into.
    let url: String
    /// The URL's authority as written (`Host` field), as UTF-8 offsets.
    let authority: Range<Int>
    /// The path and query (never the fragment), as UTF-8 offsets; empty means `/`.
    let requestTarget: Range<Int>
    /// The URL has a query but no path (`http://h?x`): the target is `/` followed by it.
    let targetNeedsSlash: Bool

    init?(_ request: HTTPRequest, proxy: ProxyEnvironment = .current) {
        var url = request.url
        guard let parsed = url.withUTF8({ PlainURLParts($0) }) else { return nil }
        self.url = url
        authority = parsed.authority
        requestTarget = parsed.target
        targetNeedsSlash = parsed.targetNeedsSlash
        let host = url.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[parsed.host]), as: UTF8.self) }
        if let pin = request.pin {
            // libcurl applies a pin only to its own host and port, and then bypasses proxies.
            guard HTTPHeaders.sameName(pin.host, host), pin.port == parsed.port, !pin.addresses.isEmpty,
                  pin.addresses.allSatisfy({ sg_numeric_address_family($0) != 0 }) else { return nil }
            endpoint = Endpoint(addresses: pin.addresses, port: parsed.port)
        } else {
            guard sg_numeric_address_family(host) != 0, proxy.goesDirect(to: host) else { return nil }
            endpoint = Endpoint(address: host, port: parsed.port)
        }
    }

    /// Appends the `Host` field's value.
    func appendAuthority(to bytes: inout [UInt8]) {
        var url = url
        url.withUTF8 { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[authority])) }
    }

    /// Appends the origin-form request target.
    func appendRequestTarget(to bytes: inout [UInt8]) {
        if targetNeedsSlash || requestTarget.isEmpty { bytes.append(0x2F) }
        var url = url
        url.withUTF8 { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[requestTarget])) }
    }
}

/// The parts of an absolute `http://` URL in the plain form the own client takes:
/// `http://HOST[:PORT][/PATH][?QUERY][#FRAGMENT]`, printable ASCII only, no user info, no percent-encoding in the host,
/// no dot segments in the path.
struct PlainURLParts {
    /// The host without IPv6 brackets.
    var host: Range<Int>
    var port = 80
    var authority: Range<Int>
    var target: Range<Int>
    var targetNeedsSlash = false

    private static let scheme: [UInt8] = Array("http://".utf8)

    init?(_ url: UnsafeBufferPointer<UInt8>) {
        let count = url.count
        guard count > 7 else { return nil }
        for i in 0..<7 where url[i] | (i < 4 ? 0x20 : 0) != Self.scheme[i] { return nil }
        // Only visible ASCII, and none of the characters libcurl would re-encode or treat specially.
        for i in 7..<count where !Self.isPlain(url[i]) { return nil }
        var end = 7
        while end < count, url[end] != 0x2F, url[end] != 0x3F, url[end] != 0x23 { end += 1 }
        authority = 7..<end
        guard end > 7 else { return nil }
        var hostEnd = end
        if url[7] == 0x5B {   // [IPv6]
            guard let close = (8..<end).first(where: { url[$0] == 0x5D }) else { return nil }
            host = 8..<close
            hostEnd = close + 1
            if hostEnd < end, url[hostEnd] != 0x3A { return nil }
        } else {
            hostEnd = (7..<end).first(where: { url[$0] == 0x3A }) ?? end
            host = 7..<hostEnd
        }
        guard !host.isEmpty else { return nil }
        for i in authority where url[i] == 0x40 || url[i] == 0x25 { return nil }   // user info, percent-encoding
        if hostEnd < end {   // ":PORT"
            let digits = (hostEnd + 1)..<end
            guard !digits.isEmpty, digits.count <= 5 else { return nil }
            var value = 0
            for i in digits {
                guard url[i] >= 0x30, url[i] <= 0x39 else { return nil }
                value = value * 10 + Int(url[i] - 0x30)
            }
            guard value >= 1, value <= 65535 else { return nil }
            port = value
        }
        var targetEnd = end
        while targetEnd < count, url[targetEnd] != 0x23 { targetEnd += 1 }
        target = end..<targetEnd
        targetNeedsSlash = end < targetEnd && url[end] == 0x3F
        var pathEnd = end
        while pathEnd < targetEnd, url[pathEnd] != 0x3F { pathEnd += 1 }
        if Self.hasDotSegment(url, end..<pathEnd) { return nil }   // libcurl removes them (RFC 3986 5.2.4)
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        switch byte {
        case 0x22, 0x3C, 0x3E, 0x5C, 0x5E, 0x60, 0x7B, 0x7C, 0x7D: return false   // " < > \ ^ ` { | }
        default: return true
        }
    }

    /// Whether a segment of the path is `.` or `..`.
    private static func hasDotSegment(_ url: UnsafeBufferPointer<UInt8>, _ path: Range<Int>) -> Bool {
        var segmentStart = path.lowerBound
        for i in path.lowerBound...path.upperBound where i == path.upperBound || url[i] == 0x2F {
            let length = i - segmentStart
            if length == 1 || length == 2, (segmentStart..<i).allSatisfy({ url[$0] == 0x2E }) { return true }
            segmentStart = i + 1
        }
        return false
    }
}

/// The proxy variables libcurl would read for a plain `http://` request, read once per process: the environment is
/// set before the gateway starts, and changing it while other threads run is undefined behaviour anyway.
struct ProxyEnvironment: Sendable {
    /// `http_proxy`, else `all_proxy`, else `ALL_PROXY` (libcurl ignores upper-case `HTTP_PROXY`, see its docs).
    let proxy: String?
    /// `no_proxy`, else `NO_PROXY`.
    let noProxy: String?
    /// `no_proxy` is `*`.
    private let bypassesAll: Bool
    /// The entries of `no_proxy`, trimmed, IPv6 brackets removed.
    private let bypassed: Set<String>

    init(proxy: String?, noProxy: String?) {
        self.proxy = proxy
        self.noProxy = noProxy
        var entries = Set<String>()
        for entry in (noProxy ?? "").split(separator: ",") {
            var item = entry.drop { $0 == " " }
            while item.last == " " { item = item.dropLast() }
            if item.first == "[", item.last == "]" { item = item.dropFirst().dropLast() }
            entries.insert(String(item))
        }
        bypassesAll = entries.contains("*")
        bypassed = entries
    }

    static let current = ProxyEnvironment(
        proxy: ["http_proxy", "all_proxy", "ALL_PROXY"].lazy.compactMap(Self.variable).first,
        noProxy: ["no_proxy", "NO_PROXY"].lazy.compactMap(Self.variable).first)

    private static func variable(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Whether libcurl would connect to the numeric `host` directly: no proxy, or `no_proxy` is `*` or lists exactly
    /// this address. Any other `no_proxy` form (a CIDR range, a domain) is left to libcurl: never wrong, at worst slower.
    func goesDirect(to host: String) -> Bool {
        proxy == nil || bypassesAll || bypassed.contains(host)
    }
}
