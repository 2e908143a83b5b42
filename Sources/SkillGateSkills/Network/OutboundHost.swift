/// The host of an outbound skill URL, reduced to the one text every later step uses: the SSRF
/// check, the `CURLOPT_RESOLVE` pin, and the URL handed to libcurl.
///
/// libcurl percent-decodes a URL's host and maps non-ASCII hosts through IDNA (full-width and
/// ideographic dots become `.`) before it resolves them, and its resolver (like `inet_aton`)
/// reads `2130706433`, `0x7f.1` or `0177.0.0.1` as addresses. A check of the text as written would
/// then judge a different host than the one reached. So only text that every one of those steps
/// reads the same way is accepted (decision 0023):
///
/// - a host name of LDH labels (`a-z`, `0-9`, `-`; 1–63 characters, not starting or ending with
///   `-`; 253 in all), lowercased, one trailing dot removed;
/// - a canonical dotted-quad IPv4 address (four decimal parts, no leading zeros);
/// - an IPv6 address in brackets, without a zone id, rewritten in its canonical text form.
///
/// Refused: percent-encoding, non-ASCII (write the `xn--` form), `_` and other characters, empty
/// labels, and any name whose last label is numeric (`127.1`, `1.2.3.4.5`, `0x7f000001`) but is
/// not a canonical IPv4 address.
public enum OutboundHost {
    /// The normalised host for `text` (the host part of a URL, IPv6 still in brackets), or a reason.
    public static func normalise(_ text: Substring) throws(OutboundError) -> String {
        if text.hasPrefix("[") { return try ipv6(text) }
        guard !text.contains("%") else {
            throw OutboundError("host \"\(text.prefix(100))\" is percent-encoded; write the host name or address as plain text (letters, digits, '-' and '.')")
        }
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            throw OutboundError("host \"\(text.prefix(100))\" has non-ASCII characters; write an international name in its ASCII (IDNA, xn--…) form and dots as '.'")
        }
        var host = text.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty else { throw OutboundError("the URL has no host") }
        guard host.utf8.count <= 253 else { throw OutboundError("host name is longer than 253 characters") }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.utf8.count) else {
                throw OutboundError("host \"\(host.prefix(100))\" has an empty label or one longer than 63 characters; check the dots in the host name")
            }
            guard label.utf8.allSatisfy(isLDH), label.first != "-", label.last != "-" else {
                throw OutboundError("host \"\(host.prefix(100))\" may only use letters, digits, '-' (not at the start or end of a label) and '.'")
            }
        }
        if let last = labels.last, isNumeric(last) {
            guard IPAddress(host) != nil else {
                throw OutboundError("host \"\(host.prefix(100))\" is an unusual numeric address form (decimal, octal, hex or short); write the address as four decimal parts like 93.184.216.34")
            }
        }
        return host
    }

    /// `[…]`: an IPv6 address, returned in canonical text (no brackets).
    private static func ipv6(_ text: Substring) throws(OutboundError) -> String {
        guard text.hasSuffix("]"), text.count > 2 else { throw OutboundError("unterminated IPv6 address in \"\(text.prefix(100))\"") }
        let inner = text.dropFirst().dropLast()
        guard inner.utf8.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else {
            throw OutboundError("\"\(text.prefix(100))\" is not a plain IPv6 address (zone ids and percent-encoding are not allowed)")
        }
        guard let address = IPAddress(String(inner)), !address.isIPv4 else {
            throw OutboundError("\"\(text.prefix(100))\" is not an IPv6 address")
        }
        return address.description
    }

    /// Whether `label` is all decimal digits or `0x` and hex digits: resolvers read such a last
    /// label as (part of) an IPv4 address.
    static func isNumeric(_ label: Substring) -> Bool {
        let bytes = Array(label.utf8)
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "0"), bytes[1] | 0x20 == UInt8(ascii: "x") {
            return bytes.dropFirst(2).allSatisfy(isHexDigit)
        }
        return !bytes.isEmpty && bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func isLDH(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-")
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "f"))
    }

    /// Whether `host` (normalised) is `localhost` or under `.localhost`: libcurl and RFC 6761
    /// answer those with loopback addresses without asking DNS.
    public static func isLocalhostName(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost")
    }
}
