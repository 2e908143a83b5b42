import SkillGateCore
import SkillGateProviders
import SkillGateSkills

/// A scenario's skill rules, resolved from config once at start.
struct ScenarioSkills: Sendable {
    /// The union of the scenario's packs; `nil` when the scenario names no packs (no skill limit).
    var allowlist: SkillAllowlist?
    /// `max_visible_skills`.
    var limit: Int?
    var options: ScenarioSkillOptions
}

/// Applies a scenario's skill rules to a decoded request before it is routed: removes (or rejects)
/// client-declared tools outside the scenario's packs, and cuts the rest to the most relevant
/// `max_visible_skills` (pinned skills and a tool named by `tool_choice` always kept), ranked by
/// `ranker` (BM25, with embeddings when configured; the embedding model is asked only when a cut
/// actually happens).
struct SkillPolicy: Sendable {
    let scenarios: [String: ScenarioSkills]
    let metadata: [String: SkillMetadata]
    /// Ranks the candidates of a cut (and keeps the tokenised documents across requests).
    let ranker: SkillRanker

    init(config: GatewayConfig, ranker: SkillRanker = .lexical) {
        self.ranker = ranker
        var out: [String: ScenarioSkills] = [:]
        for (name, s) in config.scenarios {
            let packs = s.skillPacks.compactMap { config.skillPacks[$0] }
            out[name] = ScenarioSkills(allowlist: s.skillPacks.isEmpty ? nil : SkillAllowlist(packs: packs),
                                       limit: s.maxVisibleSkills, options: s.skills)
        }
        scenarios = out
        metadata = config.skillMetadata
    }

    /// Rewrites `request.tools` (and `tool_choice` when no tool is left) for `scenario`.
    /// Throws 403 for disallowed tools in `reject` mode and for a `tool_choice` naming one.
    /// Server-side skills of `serverSkills` named in the scenario's packs (and not declared by the
    /// client under the same name) join the candidates, subject to the same cap and ranking.
    func apply(to request: inout ChatRequest, scenario: String, serverSkills: SkillRegistry? = nil) async throws(GatewayError) -> SkillDecision {
        let rules = scenarios[scenario] ?? ScenarioSkills(allowlist: nil, limit: nil, options: ScenarioSkillOptions())
        var decision = SkillDecision(limit: rules.limit, escalateTo: rules.options.escalate ? rules.options.escalateTo : nil)
        let declared = request.tools
        let server = Self.serverSkills(serverSkills, allowedBy: rules.allowlist, besides: declared)
        guard !declared.isEmpty || !server.isEmpty else { return decision }
        decision.declared = declared.count

        var candidates = declared
        if let allowlist = rules.allowlist {
            decision.removed = declared.map(\.name).filter { !allowlist.allows($0) }
            if !decision.removed.isEmpty, rules.options.disallowedTools == .reject {
                throw GatewayError(domain: .policy, kind: .permission, status: 403,
                                   message: "scenario \"\(scenario)\" does not allow the tool(s) \(Self.list(decision.removed)); it allows \(Self.list(allowlist.described)). Remove them from the request or use a scenario whose skill packs include them",
                                   param: "tools")
            }
            if case .named(let name) = request.toolChoice, decision.removed.contains(name) {
                throw GatewayError(domain: .policy, kind: .permission, status: 403,
                                   message: "tool_choice names \"\(name)\", which scenario \"\(scenario)\" does not allow; name one of \(Self.list(allowlist.described)) or use another scenario",
                                   param: "tool_choice")
            }
            let removed = Set(decision.removed)
            candidates = declared.filter { !removed.contains($0.name) }
        }
        // Server-side skills: the scenario's registered skills join `candidates` here.
        candidates += server

        if let limit = rules.limit, candidates.count > limit {
            var pinned = rules.allowlist?.pinned ?? []
            if case .named(let name) = request.toolChoice { pinned.insert(name) }
            let ranking = await ranker.select(candidates.map { SkillCandidate(tool: $0, metadata: metadata[$0.name]) },
                                              messages: request.messages, limit: limit, pinned: pinned,
                                              askSelector: rules.options.useSelector)
            decision.cut = ranking.cut.cut
            decision.ranking = ranking
            let kept = Set(ranking.cut.kept)
            candidates = candidates.filter { kept.contains($0.name) }
        }
        decision.visible = candidates.map(\.name)
        if !server.isEmpty {
            let serverNames = Set(server.map(\.name))
            decision.serverSkills = decision.visible.filter { serverNames.contains($0) }
        }
        request.tools = candidates
        if candidates.isEmpty {
            if request.toolChoice == .required {
                throw GatewayError(domain: .policy, kind: .permission, status: 403,
                                   message: "tool_choice is \"required\", but scenario \"\(scenario)\" allows none of the declared tools (\(Self.list(decision.removed))); declare an allowed tool or use another scenario",
                                   param: "tool_choice")
            }
            request.toolChoice = nil
            request.parallelToolCalls = nil
        }
        return decision
    }

    /// The registered server-side skills the scenario's allowlist shows, leaving out those the request declares
    /// itself (its own definition wins). Without server-side skills (a plain proxy) no set of the declared names is
    /// built: this runs on every request.
    ///
    /// Their definitions come from the registry, schemas kept as text: an agent's every step copies them into its
    /// upstream body (decision 0070).
    private static func serverSkills(_ registry: SkillRegistry?, allowedBy allowlist: SkillAllowlist?,
                                     besides declared: [ToolDefinition]) -> [ToolDefinition] {
        guard let allowlist, let registry else { return [] }
        let registered = registry.registered
        guard !registered.isEmpty else { return [] }
        let declaredNames = Set(declared.map(\.name))
        return registered.lazy.map(\.definition).filter { allowlist.allows($0.name) && !declaredNames.contains($0.name) }
    }

    static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
