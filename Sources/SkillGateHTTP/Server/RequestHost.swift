import SkillGateCore

/// Checks a request head's `Host` field (RFC 9112 §3.2): an HTTP/1.1 request without one, any request with more than
/// one, and a value that is not `host[:port]` are refused with 400. Two parsers in a chain that pick different Host
/// values (the first, the last, a folded or empty one) route or cache the same request differently. An HTTP/1.0
/// request may leave Host out.
enum RequestHost {
    /// Why the head's Host is refused: always 400, with a message saying what to send.
    struct Refusal: Error, Equatable {
        var status = 400
        var message: String
    }

    static let missingMessage = "The request has no Host header field, which HTTP/1.1 requires; send `Host: <host>[:<port>]` naming this server."
    static let repeatedMessage = "The request has more than one Host header field; send exactly one."
    static let invalidMessage = "The Host header field is empty or not `<host>[:<port>]` (a name, an IPv4 address or a bracketed IPv6 address, then an optional port); fix the Host field."

    /// Nil when `head`'s Host is acceptable, else why not.
    static func check(_ head: ParsedRequestHead) -> Refusal? {
        var found: String?
        for field in head.headers where field.name.utf8.count == 4 && HTTPHeaders.sameName(field.name, "host") {
            guard found == nil else { return Refusal(message: repeatedMessage) }
            found = field.value
        }
        guard let value = found else { return head.minorVersion >= 1 ? Refusal(message: missingMessage) : nil }
        return isValid(value) ? nil : Refusal(message: invalidMessage)
    }

    /// Whether `value` is RFC 3986 `host [":" port]` with a non-empty host: a registered name or IPv4 address
    /// (unreserved, sub-delims and percent signs), or an IP literal in brackets.
    static func isValid(_ value: String) -> Bool {
        // Over the value's own bytes: every request is checked, and a copy would be an allocation each.
        var value = value
        return value.withUTF8 { isValid($0) }
    }

    private static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        var index = 0
        if first == 0x5B {   // "[" IP-literal "]"
            guard let close = bytes.firstIndex(of: 0x5D), close > 1 else { return false }
            for byte in bytes[1..<close] where !(isNameByte(byte) || byte == 0x3A) { return false }
            index = close + 1
        } else {
            while index < bytes.count, bytes[index] != 0x3A {
                guard isNameByte(bytes[index]) else { return false }
                index += 1
            }
            guard index > 0 else { return false }
        }
        guard index < bytes.count else { return true }
        // ":" port: digits only (an empty port is allowed, RFC 3986 §3.2.3).
        guard bytes[index] == 0x3A, bytes.count - index - 1 <= 5 else { return false }
        return bytes[(index + 1)...].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// RFC 3986 unreserved, sub-delims and `%` (of a percent-encoded byte).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0x2D, 0x2E, 0x5F, 0x7E: return true                                            // - . _ ~
        case 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D: return true  // ! $ & ' ( ) * + , ; =
        case 0x25: return true                                                               // %
        default: return false
        }
    }
}
