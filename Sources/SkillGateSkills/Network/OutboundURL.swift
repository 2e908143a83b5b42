import FoundationEssentials
import Glibc
import Dispatch

/// An absolute http(s) URL split into the parts SSRF checks need.
public struct OutboundURL: Sendable, Hashable {
    public private(set) var scheme: String
    /// The host as `OutboundHost` normalised it: a lowercase LDH name without a trailing dot, a
    /// canonical IPv4 address, or a canonical IPv6 address without brackets. The SSRF check, the
    /// address pin and `text` all use this one string.
    public private(set) var host: String
    public private(set) var port: Int
    /// Path and query (`/a/b?c=d`), at least `/`.
    public var pathAndQuery: String

    /// The URL text for libcurl, rebuilt from the normalised parts (so libcurl looks up exactly
    /// `host`, the name the pin is keyed by).
    public var text: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        let path = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        return "\(scheme)://\(hostPart)" + (port == defaultPort ? "" : ":\(port)") + path
    }

    /// Parses `text`; throws a readable reason for anything but plain `http(s)://host[:port]/path`
    /// whose host `OutboundHost.normalise` accepts.
    public init(_ text: String) throws(OutboundError) {
        let trimmed = text.trimmingWhitespace()
        guard let schemeEnd = trimmed.firstRange(of: "://") else { throw OutboundError("\"\(text.prefix(200))\" is not an absolute URL; use http://host/path or https://host/path") }
        scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { throw OutboundError("scheme \"\(scheme)\" is not allowed; only http and https") }
        let rest = trimmed[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        if let hash = path.firstIndex(of: "#") { path = String(path[..<hash]) }
        pathAndQuery = path.isEmpty ? "/" : (path.hasPrefix("?") ? "/" + path : path)
        guard !authority.contains("@") else { throw OutboundError("URLs with user names or passwords (\"user@host\") are not allowed") }
        guard !trimmed.contains(where: { $0.isWhitespace || $0 == "\\" || ($0.asciiValue.map { $0 < 0x20 } ?? false) }) else {
            throw OutboundError("the URL contains spaces, backslashes or control characters; percent-encode them")
        }
        var hostPart = Substring(authority), portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw OutboundError("unterminated IPv6 address in \"\(authority)\"") }
            hostPart = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw OutboundError("unexpected text after the IPv6 address in \"\(authority)\"") }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw OutboundError("the URL has no host") }
        host = try OutboundHost.normalise(hostPart)
        if let portPart {
            guard let p = Int(portPart), (1...65535).contains(p) else { throw OutboundError("port \"\(portPart)\" is not a number from 1 to 65535") }
            port = p
        } else {
            port = scheme == "https" ? 443 : 80
        }
    }

    /// Resolves a redirect `Location` against this URL (absolute, scheme-relative, absolute-path or relative).
    public func resolving(_ location: String) throws(OutboundError) -> OutboundURL {
        if location.contains("://") { return try OutboundURL(location) }
        let origin = "\(scheme)://" + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        if location.hasPrefix("//") { return try OutboundURL("\(scheme):" + location) }
        if location.hasPrefix("/") { return try OutboundURL(origin + location) }
        let base = pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let directory = base.lastIndex(of: "/").map { base[...$0] } ?? "/"
        return try OutboundURL(origin + directory + location)
    }
}

/// Why an outbound skill request was refused or failed, readable by the model.
public struct OutboundError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
