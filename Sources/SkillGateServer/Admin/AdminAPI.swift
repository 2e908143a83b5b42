import SkillGateCore
import SkillGateHTTP

/// The admin API (`/admin/api/...`, admin tokens only; decision 0030): JSON for the console and for scripts. Tokens
/// (list, create — the secret shown once —, revoke, limits), usage aggregates from the ledger's report queries,
/// limits with what is left, recent requests, scenarios and skill packs as loaded, providers with whether their key is
/// set (never a key), cooldowns, and the live traffic tail (SSE). The README's "Admin API" section lists the routes.
struct AdminAPI: Sendable {
    static let prefix = "/admin/api/"

    /// A request line of the admin API.
    enum Route: Sendable, Equatable {
        case whoami
        case listTokens
        case createToken
        case revokeToken(String)
        case updateLimits(String)
        case usage
        case limits
        case requests
        case scenarios
        case providers
        case cooldowns
        case traffic

        /// Every route as `METHOD path`, for 404 messages and the README.
        static let described = [
            "GET /admin/api/whoami", "GET /admin/api/tokens", "POST /admin/api/tokens", "POST /admin/api/tokens/{name}/revoke",
            "PUT /admin/api/tokens/{name}/limits", "GET /admin/api/usage?by=day|token|model|scenario&days=N&per_day=true", "GET /admin/api/limits",
            "GET /admin/api/requests?limit=N", "GET /admin/api/scenarios", "GET /admin/api/providers", "GET /admin/api/cooldowns",
            "GET /admin/api/traffic (text/event-stream)",
        ]

        /// The route of `method path`, or a 404 listing the routes, or a 405 naming the method.
        init(method: String, path: String) throws(GatewayError) {
            let parts = path.dropFirst(AdminAPI.prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let get = method == "GET" || method == "HEAD"
            let route: Route?
            let expected: String
            switch parts.count == 1 ? parts[0] : (parts.count == 3 && parts[0] == "tokens" ? "tokens/" + parts[2] : "") {
            case "whoami": route = get ? .whoami : nil; expected = "GET"
            case "tokens": route = get ? .listTokens : (method == "POST" ? .createToken : nil); expected = "GET or POST"
            case "tokens/revoke": route = method == "POST" ? .revokeToken(parts[1]) : nil; expected = "POST"
            case "tokens/limits": route = method == "PUT" ? .updateLimits(parts[1]) : nil; expected = "PUT"
            case "usage": route = get ? .usage : nil; expected = "GET"
            case "limits": route = get ? .limits : nil; expected = "GET"
            case "requests": route = get ? .requests : nil; expected = "GET"
            case "scenarios": route = get ? .scenarios : nil; expected = "GET"
            case "providers": route = get ? .providers : nil; expected = "GET"
            case "cooldowns": route = get ? .cooldowns : nil; expected = "GET"
            case "traffic": route = get ? .traffic : nil; expected = "GET"
            default:
                throw GatewayError(domain: .caller, kind: .notFound, status: 404,
                                   message: "no admin route \(method) \(path); the admin API serves \(Self.described.joined(separator: ", "))")
            }
            guard let route else {
                var error = GatewayError(domain: .caller, kind: .invalidRequest, status: 405, message: "\(path) accepts \(expected), not \(method)")
                error.param = "method"
                throw error
            }
            self = route
        }

        /// The methods `path` takes, for a 405's `allow` header (HEAD wherever GET is); nil when it is no route.
        static func allowed(path: String) -> String? {
            let methods = ["GET", "HEAD", "POST", "PUT"].filter { (try? Route(method: $0, path: path)) != nil }
            return methods.isEmpty ? nil : methods.joined(separator: ", ")
        }
    }

    let services: GatewayServices
    let limits: LimitsStage

    /// The JSON answer of every route but `traffic` (which streams): its status and body.
    func answer(_ route: Route, _ request: HTTPServerRequest, _ client: AuthenticatedClient) throws(GatewayError) -> (Int, JSONValue) {
        let query = try AdminQuery(request.query)
        switch route {
        case .whoami:
            return (200, ["name": .string(client.name), "admin": .bool(client.admin), "chat": .bool(client.chat)])
        case .listTokens: return (200, try listTokens())
        case .createToken: return (201, try createToken(request.body))
        case .revokeToken(let name): return (200, try revokeToken(name))
        case .updateLimits(let name): return (200, try updateLimits(name, request.body))
        case .usage: return (200, try usage(query))
        case .limits: return (200, limitStatus())
        case .requests: return (200, try recentRequests(query))
        case .scenarios: return (200, scenarios())
        case .providers: return (200, providers())
        case .cooldowns: return (200, cooldowns())
        case .traffic: throw GatewayError.internalError("the traffic tail streams; it has no JSON answer")
        }
    }

    /// The body of a POST or PUT as an object, or a 400 saying what to send (an object that names a
    /// key twice among them, as on every surface: decision 0093).
    static func object(_ body: [UInt8], example: String) throws(GatewayError) -> JSONReader {
        do {
            return try JSONReader(root: try JSONValue.parse(body.isEmpty ? Array("null".utf8) : body, duplicateKeys: .refused),
                                  file: "request body")
        } catch let error as JSONShapeError {
            throw GatewayError.invalidRequest("\(error.message); send a JSON object like \(example)")
        } catch {
            throw GatewayError.invalidRequest("the body is not JSON (\(error)); send a JSON object like \(example)")
        }
    }
}

/// The query string of an admin request (`by=day&days=30`): names and values, `+` and `%XX` decoded.
struct AdminQuery: Sendable {
    let values: [String: String]

    /// Reads the query; a parameter given twice (`days=1&days=5`) is a 400 naming it, as no reader agrees which counts.
    init(_ query: String?) throws(GatewayError) {
        var values: [String: String] = [:]
        for (name, value) in QueryString.pairs(query) {
            guard values[name] == nil else {
                throw GatewayError.invalidRequest("query parameter \(name.prefix(40)) is given more than once; give it once", param: String(name.prefix(40)))
            }
            values[name] = value
        }
        self.values = values
    }

    subscript(_ name: String) -> String? { values[name] }

    /// `name` as `true` or `false`, `fallback` when absent, or a 400 naming it.
    func bool(_ name: String, fallback: Bool) throws(GatewayError) -> Bool {
        guard let text = values[name] else { return fallback }
        switch text {
        case "true": return true
        case "false": return false
        default: throw GatewayError.invalidRequest("query parameter \(name) must be true or false, got \"\(text.prefix(40))\"", param: name)
        }
    }

    /// `name` as an integer within `range`, `fallback` when absent, or a 400 naming it.
    func int(_ name: String, in range: ClosedRange<Int>, fallback: Int) throws(GatewayError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw GatewayError.invalidRequest("query parameter \(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(text.prefix(40))\"", param: name)
        }
        return value
    }
}
