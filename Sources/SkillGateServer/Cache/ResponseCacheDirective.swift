import SkillGateCore
import SkillGateHTTP

/// What a request asks of the response cache (decision 0140): `x-skillgate-cache: no-store` (neither read nor write)
/// or `refresh` (do not read, keep the fresh answer), and HTTP's own `Cache-Control: no-store` and `no-cache` (or
/// `max-age=0`), which mean the same. When both are given, the stricter wins.
enum ResponseCacheDirective: Int, Comparable, Sendable {
    case use = 0
    case refresh = 1
    case noStore = 2

    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The directive of `headers`; a 400 naming `x-skillgate-cache` for a value it does not take. `Cache-Control`
    /// directives other than those above are left alone (they are about HTTP caches in general).
    static func from(_ headers: HTTPHeaders) throws(GatewayError) -> ResponseCacheDirective {
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
        for field in headers.values("cache-control") {
            for part in field.split(separator: ",") {
                switch String(part).trimmingWhitespace().lowercased() {
                case "no-store": directive = max(directive, .noStore)
                case "no-cache", "max-age=0": directive = max(directive, .refresh)
                default: continue
                }
            }
        }
        return directive
    }
}
