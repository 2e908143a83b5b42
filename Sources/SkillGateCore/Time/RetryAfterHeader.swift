import FoundationEssentials

/// A `Retry-After` field's value (RFC 9110 §10.2.3) as seconds to wait: delay seconds, or an HTTP date (how long until
/// then; a date already past is 0). One reading for every wire format, so a provider's delay is honoured alike whichever
/// format it answers in (decision 0108). Bounds are the caller's: `GatewayError.retryAfter` keeps at most an hour.
public enum RetryAfterHeader {
    /// Seconds to wait, or nil when `value` is missing, empty, or neither form (a sign, hex, `inf`, `nan`).
    public static func seconds(_ value: String?, now: Date = Date()) -> Double? {
        guard let text = value?.trimmingWhitespace(), !text.isEmpty else { return nil }
        // Delay seconds: digits, leniently with a fraction or an exponent (`1e300` is a long wait, kept at the caller's
        // bound); not a sign, hex, `inf` or `nan`.
        if let first = text.utf8.first, first != UInt8(ascii: "-"), first != UInt8(ascii: "+"),
           text.utf8.allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }) {
            return Double(text).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        }
        guard let date = HTTPDate.secondsSince1970(text) else { return nil }
        return max(0, date - now.timeIntervalSince1970)
    }
}
