import FoundationEssentials
import SkillGateCore
import SkillGateState

/// `/admin/api/tokens`: list, create (the token text in the answer, once), revoke, limits.
extension AdminAPI {
    static let createExample = #"{"name":"ios-app","scenarios":["chat"],"models":[],"admin":false,"limits":{"requests_per_minute":60}}"#

    /// A token record as the admin API shows it: never its text or hash.
    static func json(_ t: ClientToken) -> JSONValue {
        var o = JSONObject()
        o.append("id", .string(t.id))
        o.append("name", .string(t.name))
        o.append("admin", .bool(t.admin))
        o.append("chat", .bool(t.chat))
        o.append("scenarios", .array(t.scenarios.map(JSONValue.string)))
        o.append("models", .array(t.models.map(JSONValue.string)))
        o.append("default_scenario", t.defaultScenario.map(JSONValue.string) ?? .null)
        o.append("limits", t.limits.json())
        o.append("created_at", .string(RequestLog.timestamp(t.createdAt)))
        o.append("last_used_at", t.lastUsedAt.map { .string(RequestLog.timestamp($0)) } ?? .null)
        o.append("revoked_at", t.revokedAt.map { .string(RequestLog.timestamp($0)) } ?? .null)
        o.append("status", .string(t.isRevoked ? "revoked" : "active"))
        return .object(o)
    }

    func listTokens() throws(GatewayError) -> JSONValue {
        let list = try Self.store { try services.tokens.list() }
        return ["object": "list", "data": .array(list.map(Self.json))]
    }

    func createToken(_ body: [UInt8]) throws(GatewayError) -> JSONValue {
        let r = try Self.object(body, example: Self.createExample)
        do {
            try r.rejectUnknownKeys(["name", "scenarios", "models", "default_scenario", "admin", "chat", "limits"])
            let name = try r.string("name")
            let scenarios = try r.optionalStringArray("scenarios") ?? []
            let defaultScenario = try r.optionalString("default_scenario")
            for (s, param) in scenarios.map({ ($0, "scenarios") }) + (defaultScenario.map { [($0, "default_scenario")] } ?? [])
            where services.config.scenarios[s] == nil {
                throw GatewayError.invalidRequest("unknown scenario \"\(s)\"; configured: \(services.config.scenarios.keys.sorted().joined(separator: ", "))", param: param)
            }
            let models = try r.optionalStringArray("models") ?? []
            for m in models {
                if let problem = services.config.unknownModelScopeEntry(m, catalog: services.catalog) {
                    throw GatewayError.invalidRequest(problem, param: "models")
                }
            }
            let limits = try r.object["limits"].map(Self.limits) ?? TokenLimits()
            let admin = try r.optionalBool("admin") ?? false
            let created = try Self.store {
                try services.tokens.create(name: name, scenarios: scenarios, models: models,
                                           defaultScenario: defaultScenario, limits: limits,
                                           admin: admin, chat: try r.optionalBool("chat") ?? !admin)
            }
            return ["token": .string(created.token), "record": Self.json(created.record),
                    "note": "the token is shown only this once; only its hash is stored"]
        } catch let error as JSONShapeError {
            throw GatewayError.invalidRequest("\(error.path): \(error.message); send a JSON object like \(Self.createExample)")
        } catch {
            throw GatewayError.from(error)
        }
    }

    func revokeToken(_ name: String) throws(GatewayError) -> JSONValue {
        let revoked = try Self.store { try services.tokens.revoke(name: name) }
        return Self.json(revoked)
    }

    func updateLimits(_ name: String, _ body: [UInt8]) throws(GatewayError) -> JSONValue {
        let r = try Self.object(body, example: #"{"limits":{"requests_per_minute":60,"budget_usd_per_day":null}}"#)
        guard let value = r.object["limits"] else {
            throw GatewayError.invalidRequest(#"the body needs "limits": an object of limits (null clears one), like {"limits":{"requests_per_minute":60}}"#, param: "limits")
        }
        let limits = try Self.limits(value)
        return Self.json(try Self.store { try services.tokens.updateLimits(name: name, limits) })
    }

    /// A `limits` object of a request body, or a 400 naming the bad limit.
    static func limits(_ value: JSONValue) throws(GatewayError) -> TokenLimits {
        do throws(TokenError) { return try TokenLimits(json: value, where: "limits") } catch { throw GatewayError.invalidRequest(error.description, param: "limits") }
    }

    /// Runs a token-store call: `TokenError`s become 400, 404 or 409 with their message; a store failure a 503.
    static func store<T>(_ body: () throws -> T) throws(GatewayError) -> T {
        do {
            return try body()
        } catch let error as GatewayError {
            throw error
        } catch let error as TokenError {
            switch error {
            case .unknownToken: throw GatewayError(domain: .caller, kind: .notFound, status: 404, message: error.description)
            case .duplicateName, .alreadyRevoked, .revokedLimits: throw GatewayError(domain: .caller, kind: .invalidRequest, status: 409, message: error.description)
            case .defaultScenarioNotAllowed: throw GatewayError.invalidRequest(error.description, param: "default_scenario")
            default: throw GatewayError.invalidRequest(error.description)
            }
        } catch {
            throw GatewayError(domain: .gateway, kind: .upstreamUnavailable, status: 503,
                               message: "the state store failed (\(error)); retry in a few seconds, and check state_dir or state.postgres_url", retryAfter: 2)
        }
    }
}
