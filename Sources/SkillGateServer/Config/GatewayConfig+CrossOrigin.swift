import SkillGateCore

extension GatewayConfig {
    static let crossOriginKeys: Set<String> = ["cors"]

    /// `cors`: the web pages (origins) whose scripts may call the client API from a browser (CORS, decision 0095). Off
    /// when the key is absent: a browser then lets no page of another origin read an answer.
    public struct CrossOrigin: Sendable, Hashable {
        /// `"*"`: a page of any origin may call (with a SkillGate token it holds; no cookie is ever involved).
        public var anyOrigin: Bool
        /// The origins allowed, as a browser sends them in `Origin`: `scheme://host[:port]` in lower case, without the
        /// scheme's default port.
        public var origins: Set<String>
        /// How long a browser may keep a preflight's answer (`Access-Control-Max-Age`).
        public var maxAgeSeconds: Int

        public init(anyOrigin: Bool = false, origins: Set<String> = [], maxAgeSeconds: Int = 600) {
            self.anyOrigin = anyOrigin
            self.origins = origins
            self.maxAgeSeconds = maxAgeSeconds
        }
    }

    /// Reads `cors`; nil when absent.
    static func parseCrossOrigin(_ r: JSONReader) throws(JSONShapeError) -> CrossOrigin? {
        guard let c = try r.optionalObject("cors") else { return nil }
        try c.rejectUnknownKeys(["allowed_origins", "max_age_seconds", "$comment"])
        guard let listed = try c.optionalStringArray("allowed_origins"), !listed.isEmpty else {
            throw c.error("allowed_origins", "is required: list the origins of the web pages that may call the gateway, like [\"https://app.example.com\"], or [\"*\"] for any; remove `cors` to allow none")
        }
        var policy = CrossOrigin()
        for (i, origin) in listed.enumerated() {
            if origin == "*" { policy.anyOrigin = true; continue }
            switch Self.normalizedOrigin(origin) {
            case .success(let normal): policy.origins.insert(normal)
            case .failure(let problem): throw c.error("allowed_origins[\(i)]", problem.message)
            }
        }
        if let age = try c.optionalInt("max_age_seconds") {
            guard (0...86_400).contains(age) else {
                throw c.error("max_age_seconds", "must be from 0 to 86400 seconds (browsers cap it lower: Chrome at 7200), got \(age)")
            }
            policy.maxAgeSeconds = age
        }
        return policy
    }

    /// Why an `allowed_origins` entry is not an origin.
    struct OriginProblem: Error { let message: String }

    /// `origin` as a browser would send it (`https://App.Example.com:443` → `https://app.example.com`), or why it is
    /// not one: a scheme of `http` or `https`, a host of letters, digits, `-` and `.` (or an IPv6 address in brackets),
    /// an optional port, and nothing after.
    static func normalizedOrigin(_ origin: String) -> Result<String, OriginProblem> {
        let lower = origin.lowercased()
        let scheme: String
        if lower.hasPrefix("https://") { scheme = "https" } else if lower.hasPrefix("http://") { scheme = "http" } else {
            let hint = origin == "null"
                ? "the origin \"null\" (sandboxed pages, local files) is shared by every such page, so it cannot be allowed alone"
                : "expected an origin like \"https://app.example.com\" (http or https, a host and an optional port), got \"\(origin)\""
            return .failure(OriginProblem(message: hint))
        }
        let rest = lower.dropFirst(scheme.count + 3)
        if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            let bare = "\(scheme)://\(rest[..<slash])"
            return .failure(OriginProblem(message: "an origin has no path, query or trailing slash: write \"\(bare)\" instead of \"\(origin)\""))
        }
        var host = Substring(rest), port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else {
                return .failure(OriginProblem(message: "the IPv6 address in \"\(origin)\" has no closing `]`"))
            }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") { port = after.dropFirst() } else if !after.isEmpty {
                return .failure(OriginProblem(message: "expected `:port` or nothing after the IPv6 address in \"\(origin)\""))
            }
            host = host[...close]
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }), host.count > 2 else {
                return .failure(OriginProblem(message: "\"\(host)\" in \"\(origin)\" is not an IPv6 address"))
            }
        } else {
            if let colon = host.lastIndex(of: ":") {
                port = host[host.index(after: colon)...]
                host = host[..<colon]
            }
            guard !host.isEmpty, host.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." }) else {
                return .failure(OriginProblem(message: "the host of \"\(origin)\" must be letters, digits, `-` and `.` (an internationalised name in its xn-- form)"))
            }
        }
        var normal = "\(scheme)://\(host)"
        if let port {
            guard let number = Int(port), (1...65_535).contains(number), port.allSatisfy(\.isASCII) else {
                return .failure(OriginProblem(message: "the port of \"\(origin)\" must be a number from 1 to 65535"))
            }
            let isDefault = (scheme == "https" && number == 443) || (scheme == "http" && number == 80)
            if !isDefault { normal += ":\(number)" }
        }
        return .success(normal)
    }
}
