import SkillGateCore
import SkillGateHTTP

/// What a request asks of the response cache (decision 0140): `x-skillgate-cache: no-store` (neither read nor write)
/// or `refresh` (do not read, keep the fresh answer), and HTTP's own `Cache-Control: no-store` and `no-cache` (or
/// `max-age=0`), which mean the same. When both are given, the stricter wins. A `max-age` above 0 bounds the age of an
/// answer that may be served (`maxAgeSeconds`).
enum ResponseCacheDirective: Int, Comparable, Sendable {
    case use = 0
    case refresh = 1
    case noStore = 2

    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The directive of `headers`, and the smallest `Cache-Control: max-age` above 0 (the client takes no kept answer
    /// older than that many seconds, RFC 9111 5.2.1.1; nil when none is given, or only 0, which is a refresh); a 400
    /// naming `x-skillgate-cache` for a value it does not take. `Cache-Control` directives other than those above are
    /// left alone (they are about HTTP caches in general). Each field is read once.
    static func read(_ headers: HTTPHeaders) throws(GatewayError) -> (directive: ResponseCacheDirective, maxAgeSeconds: Int?) {
        var directive = ResponseCacheDirective.use
        if let value = try GatewayFields.once(headers, "x-skillgate-cache") {
            switch value.trimmingWhitespace().lowercased() {
            case "no-store": directive = .noStore
            case "refresh": directive = .refresh
            default:
                throw GatewayError.invalidRequest(
                    "x-skillgate-cache: expected \"no-store\" (neither read nor keep an answer) or \"refresh\" (ask the model and keep its answer), got \"\(value.prefix(64))\"; leave the header out to use the cache.",
                    param: "x-skillgate-cache")
            }
        }
        var maxAge: Int?
        for (name, value) in cacheControl(headers) {
            switch name {
            case "no-store": directive = max(directive, .noStore)
            case "no-cache": directive = max(directive, .refresh)
            case "max-age":
                guard let seconds = deltaSeconds(value) else { continue }
                if seconds == 0 { directive = max(directive, .refresh) } else { maxAge = min(maxAge ?? seconds, seconds) }
            default: continue
            }
        }
        return (directive, maxAge)
    }

    /// The directives of every `Cache-Control` field: each name lowercased, and its argument without the quotes of a
    /// quoted string (which RFC 9111 asks recipients to accept where a token is expected).
    private static func cacheControl(_ headers: HTTPHeaders) -> [(name: String, value: String?)] {
        headers.values("cache-control").flatMap { field in
            field.split(separator: ",").map { part -> (name: String, value: String?) in
                let directive = String(part).trimmingWhitespace()
                guard let equals = directive.firstIndex(of: "=") else { return (directive.lowercased(), nil) }
                var value = String(directive[directive.index(after: equals)...]).trimmingWhitespace()
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                return (String(directive[..<equals]).trimmingWhitespace().lowercased(), value)
            }
        }
    }

    /// A directive's delta-seconds (one or more ASCII digits, leading zeros allowed); a value too large for the cache to
    /// tell apart is 2^31 (RFC 9111, 1.2.2). Nil when the value is missing or not digits: such a directive is ignored.
    private static func deltaSeconds(_ value: String?) -> Int? {
        guard let value, !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let digits = value.drop { $0 == "0" }
        guard digits.count <= 10, let seconds = Int(digits.isEmpty ? "0" : String(digits)) else { return 1 << 31 }
        return min(seconds, 1 << 31)
    }
}
