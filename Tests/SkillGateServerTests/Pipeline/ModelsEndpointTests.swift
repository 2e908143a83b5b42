import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// `GET /v1/models` and `GET /v1/models/{id}` (decision 0131) through a gateway: the deployments, aliases and router
/// names a token may use, in the OpenAI shape or, for a request with `anthropic-version`, the Anthropic API's; one of
/// them retrieved by name; a name outside the token's reach a 404 naming `model`.
@Suite struct ModelsEndpointTests {
    typealias H = SkillsGatewayHarness
    static let config = #""aliases":{"fast":"up/light-native"},"scenarios":{"chat":{},"cheap":{"allowed_models":["light"]}}"#

    static func get(_ h: H, _ path: String, token: String? = nil, headers: HTTPHeaders = [:]) async throws -> (status: Int, headers: HTTPHeaders, json: JSONValue) {
        var all = headers
        all.set("authorization", "Bearer \(token ?? h.token)")
        let r = try await h.client.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(h.gateway.boundPort)\(path)", headers: all))
        return (r.status, r.headers, (try? JSONValue.parse(r.body)) ?? .null)
    }

    static func ids(_ list: JSONValue) -> [String] {
        list["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    @Test func theListNamesDeploymentsAliasesAndTheRoutersNames() async throws {
        let h = try H(config: Self.config, script: [:])
        let list = try await Self.get(h, "/v1/models")
        let light = try await Self.get(h, "/v1/models", token: try h.makeToken(name: "light-only", models: ["light"]))
        let cheap = try await Self.get(h, "/v1/models", headers: ["x-skillgate-scenario": "cheap"])
        await h.stop()
        #expect(list.status == 200 && list.json["object"] == "list")
        #expect(Self.ids(list.json) == ["up/light-native", "up/light-prompt", "up/strong-native", "fast", "auto", "light", "strong"], "\(list.json)")
        let owners = Dictionary(uniqueKeysWithValues: (list.json["data"]?.arrayValue ?? []).map { ($0["id"]?.stringValue ?? "", $0["owned_by"]?.stringValue ?? "") })
        #expect(owners["up/strong-native"] == "up" && owners["fast"] == "skillgate-alias" && owners["auto"] == "skillgate-router" && owners["strong"] == "skillgate-tier")
        #expect(!Self.ids(light.json).contains("strong") && Self.ids(light.json).contains("light"), "a token limited to the light tier: \(light.json)")
        #expect(!Self.ids(cheap.json).contains("strong") && !Self.ids(cheap.json).contains("up/strong-native"), "\(cheap.json)")
    }

    /// A provider whose key is not set is left out, with the router's names that reach only it: its models answer 503
    /// "no key is set", and the list is of "the model names this token may use" (decision 0146's documentation round:
    /// the offline default config listed 39 names of providers without keys). Set the key, and they are listed.
    @Test func aProviderWithoutItsKeyIsNotListed() async throws {
        let up = try UpstreamDouble([OpenAIRecordings.text])
        let gw = try ResilienceGateway(providers: [("up-a", up.baseURL)], tier: ["up-a/m"], keys: [("UP_KEY", "sk-list-0123456789abcdef")])
        func listed() async throws -> [String] { Self.ids(try JSONValue.parse(try await gw.get("/v1/models").body)) }
        let withKey = try await listed()
        try gw.server.services.keys.remove("UP_KEY")
        let withoutKey = try await listed()
        let call = try await gw.send(ResilienceGateway.body(model: "light"))
        try gw.server.services.keys.set("UP_KEY", secret: "sk-list-0123456789abcdef")
        let again = try await listed()
        await gw.stop()
        await up.stop()
        #expect(withKey == ["up-a/m", "auto", "light"], "\(withKey)")
        #expect(withoutKey.isEmpty, "\(withoutKey)")
        #expect(call.status == 503, "the model the list left out cannot be called")
        #expect(again == withKey)
    }

    /// `models.retrieve`: a listed name answers its list entry; `provider/model` with its slash as it is or encoded.
    @Test(arguments: ["up/strong-native", "up%2Fstrong-native", "fast", "auto", "light"])
    func aListedNameIsRetrieved(_ id: String) async throws {
        let h = try H(config: Self.config, script: [:])
        let list = try await Self.get(h, "/v1/models")
        let one = try await Self.get(h, "/v1/models/\(id)")
        await h.stop()
        let name = id.replacingOccurrences(of: "%2F", with: "/")
        #expect(one.status == 200, "\(one.json)")
        #expect(one.json == list.json["data"]?.arrayValue?.first { $0["id"]?.stringValue == name })
    }

    /// An unknown name, a deployment the catalog does not have, and a name outside the token's or the scenario's models get one 404
    /// naming `model` and saying where the names are listed.
    @Test func aNameOutsideTheTokensReachIsA404() async throws {
        let h = try H(config: Self.config, script: [:])
        let lightOnly = try h.makeToken(name: "light-only", models: ["light"])
        let answers = [try await Self.get(h, "/v1/models/gpt-nothing"), try await Self.get(h, "/v1/models/up/missing"),
                       try await Self.get(h, "/v1/models/strong", token: lightOnly),
                       try await Self.get(h, "/v1/models/up/strong-native", headers: ["x-skillgate-scenario": "cheap"])]
        let anthropic = try await Self.get(h, "/v1/models/gpt-nothing", headers: ["anthropic-version": "2023-06-01"])
        await h.stop()
        for a in answers {
            #expect(a.status == 404 && a.json["error"]?["param"] == "model" && a.json["error"]?["type"] == "invalid_request_error", "\(a.json)")
            #expect(a.json["error"]?["message"]?.stringValue?.contains("GET /v1/models lists") == true)
        }
        #expect(anthropic.status == 404 && anthropic.json["type"] == "error" && anthropic.json["error"]?["type"] == "not_found_error", "\(anthropic.json)")
    }

    /// With `anthropic-version` (every Anthropic SDK sends it) the list and a model are in the Anthropic API's shape.
    @Test func anAnthropicClientGetsTheAnthropicShape() async throws {
        let h = try H(config: Self.config, script: [:])
        let list = try await Self.get(h, "/v1/models", headers: ["anthropic-version": "2023-06-01"])
        let one = try await Self.get(h, "/v1/models/fast", headers: ["anthropic-version": "2023-06-01"])
        let unauthenticated = try await h.client.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(h.gateway.boundPort)/v1/models",
                                                                  headers: ["anthropic-version": "2023-06-01"]))
        await h.stop()
        #expect(list.json["object"] == nil && list.json["has_more"] == false)
        #expect(list.json["first_id"] == "up/light-native" && list.json["last_id"] == "strong")
        #expect(list.json["data"]?.arrayValue?.first == ["type": "model", "id": "up/light-native", "display_name": "up/light-native",
                                                        "created_at": "1970-01-01T00:00:00Z"])
        #expect(one.json == ["type": "model", "id": "fast", "display_name": "fast", "created_at": "1970-01-01T00:00:00Z"])
        #expect(unauthenticated.status == 401 && (try? JSONValue.parse(unauthenticated.body))?["type"] == "error")
    }

    /// A bare model id that one deployment offers is a name the router takes for a chat (decision 0133), so `models.retrieve`
    /// of it (a tool checking its configured model at start) answers that deployment's entry, as Anthropic's API answers
    /// an alias with the model it names; outside the token's models it is the 404.
    @Test func aBareModelIdTheRouterTakesIsRetrievedAsItsDeployment() async throws {
        let h = try H(config: Self.config, script: [:])
        let list = try await Self.get(h, "/v1/models")
        let bare = try await Self.get(h, "/v1/models/strong-native")
        let anthropic = try await Self.get(h, "/v1/models/strong-native", headers: ["anthropic-version": "2023-06-01"])
        let lightOnly = try await Self.get(h, "/v1/models/strong-native", token: try h.makeToken(name: "light-only", models: ["light"]))
        await h.stop()
        #expect(bare.status == 200, "\(bare.json)")
        #expect(bare.json == list.json["data"]?.arrayValue?.first { $0["id"]?.stringValue == "up/strong-native" })
        #expect(anthropic.json["id"] == "up/strong-native" && anthropic.json["type"] == "model", "\(anthropic.json)")
        #expect(lightOnly.status == 404 && lightOnly.json["error"]?["param"] == "model", "\(lightOnly.json)")
        #expect(!Self.ids(list.json).contains("strong-native"), "the list keeps one entry a deployment")
    }

    @Test func otherMethodsOnAModelAreA405() async throws {
        guard case .failure(let r) = Endpoint.accept(method: "DELETE", path: "/v1/models/fast") else { Issue.record("accepted"); return }
        #expect(r.error.status == 405 && r.allowed == "GET, HEAD")
        guard case .success(.model) = Endpoint.accept(method: "HEAD", path: "/v1/models/up/x") else { Issue.record("HEAD not served"); return }
        guard case .success(.models) = Endpoint.accept(method: "GET", path: "/v1/models") else { Issue.record("the list moved"); return }
        guard case .failure = Endpoint.accept(method: "GET", path: "/v1/models/") else { Issue.record("an empty id was served"); return }
    }
}
