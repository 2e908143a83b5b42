import SkillGateCore
import SkillGateProviders
import SkillGateSkills

/// What happens to client-declared tools outside a scenario's skill packs.
public enum DisallowedToolsMode: String, Sendable, Hashable, CaseIterable {
    /// They are removed before the request goes upstream, and the removal is logged (default).
    case remove
    /// The request is refused with 403, naming the tools and the scenario.
    case reject
}

/// A scenario's skill options beyond its packs and its cap (config keys `disallowed_tools`,
/// `escalate`, `escalate_to`, `skill_selector`).
public struct ScenarioSkillOptions: Sendable, Hashable {
    public var disallowedTools: DisallowedToolsMode
    /// Re-run on `escalateTo` when a model of another tier gives an unusable answer.
    public var escalate: Bool
    /// The tier escalation goes to (default `strong`).
    public var escalateTo: ModelTier
    /// Whether this scenario's cuts ask `skill_ranking.selector` (default `true`; `false` keeps a latency-sensitive
    /// scenario on the ranking alone). Nothing to ask without a configured selector.
    public var useSelector: Bool

    /// The scenario keys read here.
    static let keys: Set<String> = ["disallowed_tools", "escalate", "escalate_to", "skill_selector"]

    public init(disallowedTools: DisallowedToolsMode = .remove, escalate: Bool = false, escalateTo: ModelTier = .strong,
                useSelector: Bool = true) {
        self.disallowedTools = disallowedTools
        self.escalate = escalate
        self.escalateTo = escalateTo
        self.useSelector = useSelector
    }

    init(reader s: JSONReader) throws(JSONShapeError) {
        let mode = try s.optionalEnum("disallowed_tools", DisallowedToolsMode.allCases.map(\.rawValue))
        let tier = try s.optionalEnum("escalate_to", ModelTier.allCases.map(\.rawValue))
        self.init(disallowedTools: mode.flatMap(DisallowedToolsMode.init(rawValue:)) ?? .remove,
                  escalate: try s.optionalBool("escalate") ?? false,
                  escalateTo: tier.flatMap(ModelTier.init(rawValue:)) ?? .strong,
                  useSelector: try s.optionalBool("skill_selector") ?? true)
        if tier != nil, !escalate {
            throw s.error("escalate_to", "has no effect unless \"escalate\" is true; set \"escalate\": true or remove it")
        }
    }
}

extension GatewayConfig {
    /// `skill_packs`: each pack is an array of skill names or `{"skills": [...], "pinned": [...]}`.
    /// An empty pack is an error (it would expose nothing); pinned skills must be in the pack.
    static func loadSkillPacks(_ r: JSONReader) throws(JSONShapeError) -> [String: SkillPack] {
        guard let packs = try r.optionalObject("skill_packs") else { return [:] }
        var out: [String: SkillPack] = [:]
        for m in packs.object {
            let skills: [String], pinned: [String]
            if m.value.arrayValue != nil {
                skills = try packs.optionalStringArray(m.key) ?? []
                pinned = []
            } else if m.value.objectValue != nil {
                let p = try packs.object(m.key)
                try p.rejectUnknownKeys(["skills", "pinned", "description"])
                skills = try p.optionalStringArray("skills") ?? []
                pinned = try p.optionalStringArray("pinned") ?? []
                for (i, name) in pinned.enumerated() where !skills.contains(name) {
                    throw p.error("pinned[\(i)]", "\"\(name)\" is not one of this pack's skills; add it to \"skills\" or unpin it")
                }
            } else {
                throw packs.error(m.key, "expected an array of skill names or an object {\"skills\": [...], \"pinned\": [...]}, got \(m.value.typeDescription)")
            }
            if skills.isEmpty {
                throw packs.error(m.key, "the pack has no skills, so a scenario using it would expose nothing; list skill names or remove the pack")
            }
            for (i, name) in skills.enumerated() where !SkillPack.isValidSkillName(name) && MCPSkillName.packEntry(name) == nil {
                throw packs.error(m.value.arrayValue != nil ? "\(m.key)[\(i)]" : "\(m.key).skills[\(i)]",
                                  "\"\(name)\" is not a valid skill name (1-64 characters: letters, digits, _ and -) nor an MCP server's tool (\"SERVER.TOOL\" or \"SERVER.*\")")
            }
            out[m.key] = SkillPack(name: m.key, skills: skills, pinned: pinned)
        }
        return out
    }

    /// `skills`: optional metadata for ranking, `{"name": {"description": "...", "keywords": [...]}}`.
    static func loadSkillMetadata(_ r: JSONReader) throws(JSONShapeError) -> [String: SkillMetadata] {
        var out: [String: SkillMetadata] = [:]
        for (name, s) in try r.optionalObjectMap("skills") ?? [] {
            try s.rejectUnknownKeys(["description", "keywords"])
            out[name] = SkillMetadata(description: try s.optionalString("description"), keywords: try s.optionalStringArray("keywords") ?? [])
        }
        return out
    }

    /// Cross-checks scenarios, packs, metadata and escalation tiers; called at load, so a problem
    /// fails `skillgate config check` and start, never a request.
    func validateSkills(_ r: JSONReader) throws(JSONShapeError) {
        let packed = Set(skillPacks.values.flatMap(\.skills))
        for name in skillMetadata.keys.sorted() where !packed.contains(name) {
            throw r.error("skills.\(name)", "\"\(name)\" is in no skill pack, so its metadata is never used; add it to a pack under \"skill_packs\" or fix the name")
        }
        for (name, s) in scenarios.sorted(by: { $0.key < $1.key }) {
            for pack in s.skillPacks where skillPacks[pack] == nil {
                throw r.error("scenarios.\(name).skill_packs", "names skill pack \"\(pack)\", which is not defined under \"skill_packs\"")
            }
            if let max = s.maxVisibleSkills {
                guard max >= 1 else {
                    throw r.error("scenarios.\(name).max_visible_skills", "must be at least 1; remove it for no limit")
                }
                let pinned = SkillAllowlist(packs: s.skillPacks.compactMap { skillPacks[$0] }).pinned
                if pinned.count > max {
                    throw r.error("scenarios.\(name).max_visible_skills",
                                  "is \(max), but the scenario's packs pin \(pinned.count) skills (\(pinned.sorted().joined(separator: ", "))), which are always shown; raise the cap or pin fewer")
                }
            }
            if s.skills.escalate {
                let tier = s.skills.escalateTo
                let members = tiers[tier] ?? []
                if members.isEmpty {
                    throw r.error("scenarios.\(name).escalate_to", "escalates to tier \"\(tier.rawValue)\", which has no models; add some under \"tiers.\(tier.rawValue)\"")
                }
                if !s.allowedModels.isEmpty, !s.allowedModels.contains(tier.rawValue), !members.contains(where: s.allowedModels.contains) {
                    throw r.error("scenarios.\(name).allowed_models", "does not allow tier \"\(tier.rawValue)\", which the scenario escalates to; add \"\(tier.rawValue)\" or turn escalation off")
                }
            }
        }
    }
}
