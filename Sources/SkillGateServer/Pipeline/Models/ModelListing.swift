import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

/// The model names a token may send, as `GET /v1/models` lists them and `GET /v1/models/{id}` answers one (decision
/// 0131): each deployment as `provider/model`, each alias of one of them, then the names the router takes, `auto` and
/// each tier (`light`, `strong`) that reaches a model the token and scenario may use.
///
/// In the OpenAI shape by default; in the Anthropic API's when the request carries `anthropic-version` (every
/// Anthropic SDK sends it), so `client.models.list()` and `retrieve` of either SDK read their own shape.
struct ModelListing: Sendable {
    /// One listed name and who offers it: the provider's id, `skillgate-alias`, `skillgate-router` or `skillgate-tier`.
    struct Entry: Sendable, Equatable {
        var id: String
        var ownedBy: String
    }

    let entries: [Entry]
    /// The entries of the listed deployments by their bare model id, for the ids the router takes alone (only one
    /// enabled provider offers them): not listed, but retrieved as their deployment (decision 0133).
    let byBareId: [String: Entry]

    /// The names `client` may use in `scenario`: of the deployments, those `callable` says can be called now (a provider
    /// whose key is not set cannot: its models are left out, and so are the router's names that reach none of the rest).
    init(resolver: ModelResolver, aliases: [String: String], scenario: GatewayConfig.ScenarioConfig, scope: AccessScope,
         callable: (RouteTarget) -> Bool = { _ in true }) {
        let targets = resolver.visibleModels(scenario: scenario, scope: scope).filter(callable)
        var entries = targets.map { Entry(id: $0.qualifiedName, ownedBy: $0.provider.id) }
        var byBareId: [String: Entry] = [:]
        for (target, entry) in zip(targets, entries) where aliases[target.model.id] == nil && ModelTier(rawValue: target.model.id) == nil {
            if let resolved = try? resolver.table.resolve(target.model.id).targets, resolved.map(\.qualifiedName) == [target.qualifiedName] {
                byBareId[target.model.id] = entry
            }
        }
        self.byBareId = byBareId
        let names = Set(targets.map(\.qualifiedName))
        for (alias, target) in aliases.sorted(by: { $0.key < $1.key }) where names.contains(target) {
            entries.append(Entry(id: alias, ownedBy: "skillgate-alias"))
        }
        // The router's names: listed when they plan to at least one model this token and scenario may use.
        for (name, owner) in [("auto", "skillgate-router")] + ModelTier.allCases.map({ ($0.rawValue, "skillgate-tier") })
        where !names.contains(name) && (try? resolver.plan(requested: name, scenario: scenario, scope: scope))?.targets.contains(where: callable) == true {
            entries.append(Entry(id: name, ownedBy: owner))
        }
        self.entries = entries
    }

    /// Whether a request asks in the Anthropic API's shape (it carries `anthropic-version`).
    static func wantsAnthropicShape(_ headers: HTTPHeaders) -> Bool {
        headers["anthropic-version"] != nil
    }

    /// The list: `{"object":"list","data":[…]}` (OpenAI), or `{"data":[…],"has_more":false,"first_id","last_id"}`
    /// (Anthropic).
    func list(anthropic: Bool) -> JSONValue {
        let data = JSONValue.array(entries.map { object($0, anthropic: anthropic) })
        guard anthropic else { return ["object": "list", "data": data] }
        return ["data": data, "has_more": false, "first_id": entries.first.map { .string($0.id) } ?? .null,
                "last_id": entries.last.map { .string($0.id) } ?? .null]
    }

    /// The entry named `id`, or a 404 naming `model` that says where the names are listed. A bare model id the router
    /// takes for a chat (one enabled provider offers it) answers its deployment's entry, as the Anthropic API answers an
    /// alias with the model it names (decision 0133).
    func entry(_ id: String) throws(GatewayError) -> Entry {
        guard let entry = entries.first(where: { $0.id == id }) ?? byBareId[id] else {
            throw GatewayError(domain: .caller, kind: .notFound, status: 404,
                               message: "model \"\(id.prefix(200))\" is not one this token may use in this scenario (an unknown name, or outside the token's or the scenario's models); GET /v1/models lists the ones it may",
                               param: "model")
        }
        return entry
    }

    /// One model object: `{"id","object":"model","created":0,"owned_by"}` (OpenAI), or `{"type":"model","id",
    /// "display_name","created_at"}` (Anthropic; the gateway knows no release dates, so the epoch, as `created` is 0).
    func object(_ entry: Entry, anthropic: Bool) -> JSONValue {
        guard anthropic else { return ["id": .string(entry.id), "object": "model", "created": 0, "owned_by": .string(entry.ownedBy)] }
        return ["type": "model", "id": .string(entry.id), "display_name": .string(entry.id), "created_at": "1970-01-01T00:00:00Z"]
    }

    /// A model id as a path segment carries it (`/v1/models/{id}`): `%XX` decoded (an SDK may send `provider/model` with
    /// its slash encoded, or not), `+` left as it is.
    static func decodePathSegment(_ text: Substring) -> String {
        QueryString.decode(text, plusIsSpace: false)
    }
}
