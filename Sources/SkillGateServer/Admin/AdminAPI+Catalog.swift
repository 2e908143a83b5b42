import SkillGateCore
import SkillGateProviders

/// `/admin/api/scenarios`, `/admin/api/providers`, `/admin/api/cooldowns`: what the gateway loaded. Never a key
/// (only whether one is set), never a webhook URL (it may carry a secret).
extension AdminAPI {
    func scenarios() -> JSONValue {
        let config = services.config
        let scenarios: [JSONValue] = config.scenarios.sorted { $0.key < $1.key }.map { name, s in
            var o = JSONObject()
            o.append("name", .string(name))
            o.append("description", s.description.map(JSONValue.string) ?? .null)
            o.append("default", .bool(name == config.defaultScenario))
            o.append("skill_packs", .array(s.skillPacks.map(JSONValue.string)))
            o.append("default_model", .string(s.defaultModel ?? config.defaultModel))
            o.append("allowed_models", .array(s.allowedModels.map(JSONValue.string)))
            o.append("max_visible_skills", s.maxVisibleSkills.map { .int($0) } ?? .null)
            o.append("skill_selector", .bool(config.skillRanking.selector != nil && s.skills.useSelector))
            o.append("limits", s.limits.json())
            return .object(o)
        }
        let packs: [JSONValue] = config.skillPacks.sorted { $0.key < $1.key }.map { name, pack in
            ["name": .string(name), "skills": .array(pack.skills.map(JSONValue.string)), "pinned": .array(pack.pinned.map(JSONValue.string))]
        }
        let skills: [JSONValue] = services.serverSkills.all.sorted { $0.name < $1.name }.map { skill in
            ["name": .string(skill.name), "description": .string(skill.description), "requires_confirmation": .bool(skill.requiresConfirmation)]
        }
        var models: [JSONValue] = ["auto"]
        models += config.tiers.keys.map(\.rawValue).sorted().map(JSONValue.string)
        models += config.aliases.keys.sorted().map(JSONValue.string)
        return ["scenarios": .array(scenarios), "skill_packs": .array(packs), "server_skills": .array(skills), "models": .array(models),
                "skill_ranking": skillRanking()]
    }

    /// How cuts are ranked (`skill_ranking` as loaded) and how they were ranked since start: whether the embedding
    /// model or the selector is in use or falling back shows here without a metrics stack.
    private func skillRanking() -> JSONValue {
        let settings = services.config.skillRanking
        let counters = services.skillRanker.counters
        var o = JSONObject()
        o.append("ranking", .string(settings.embeddings == nil ? "lexical" : "hybrid"))
        o.append("embedding_model", settings.embeddings.map { .string($0.model) } ?? .null)
        o.append("embedding_timeout_ms", settings.embeddings.map { .int($0.timeoutMs) } ?? .null)
        o.append("word_vectors", .bool(settings.wordVectors))
        o.append("selector", settings.selector.map { s in
            ["model": .string(s.model), "candidates": .int(s.candidates), "timeout_ms": .int(s.timeoutMs)]
        } ?? .null)
        o.append("cuts", ["hybrid": .int(counters.hybrid), "lexical": .int(counters.lexical), "lexical_fallback": .int(counters.fallbacks)])
        o.append("selector_calls", ["chose": .int(counters.selected), "failed": .int(counters.selectorFailures)])
        return .object(o)
    }

    func providers() -> JSONValue {
        let config = services.config
        let data: [JSONValue] = services.catalog.providers.map { p in
            let override = config.providerOverrides[p.id]
            let keyName = override?.keyName ?? p.keyName
            var o = JSONObject()
            o.append("id", .string(p.id))
            o.append("name", .string(p.displayName))
            o.append("wire_format", .string(p.wireFormat.rawValue))
            o.append("enabled", .bool(config.isEnabled(p)))
            o.append("key_needed", .bool(p.auth != .none))
            o.append("key_name", keyName.map(JSONValue.string) ?? .null)
            o.append("key_set", .bool(p.auth == .none || keyName.map { services.keys.secret(named: $0) != nil } == true))
            o.append("models", .array(p.chatModels.map { m in
                var model: JSONObject = ["id": .string("\(p.id)/\(m.id)"), "tier": .string(m.tier.rawValue), "tools": .string(m.tools.rawValue)]
                model.append("input_per_mtok", m.price.map { .double($0.inputPerMTok) } ?? .null)
                model.append("output_per_mtok", m.price.map { .double($0.outputPerMTok) } ?? .null)
                return .object(model)
            }))
            return .object(o)
        }
        return ["object": "list", "data": .array(data)]
    }

    /// Each chat model's health as the router sees it: consecutive failures, the cooldown left, calls in flight, and
    /// how many tokens it is cooling down for alone.
    func cooldowns() -> JSONValue {
        let health = services.executor.health
        var data: [JSONValue] = []
        for p in services.catalog.providers {
            for m in p.chatModels {
                let name = "\(p.id)/\(m.id)"
                let snapshot = health.snapshot(name)
                let left = health.remainingCooldown(name)
                data.append(["model": .string(name), "consecutive_failures": .int(snapshot.consecutiveFailures),
                             "cooling_down": .bool(left != nil), "cooldown_remaining_ms": left.map { .int(Int($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000)) } ?? .null,
                             "in_flight": .int(snapshot.inFlight),
                             // Tokens whose own requests alone failed it, cooling for them only (decision 0115).
                             "cooling_down_for_tokens": .int(snapshot.cooledCallers)])
            }
        }
        return ["object": "list", "data": .array(data)]
    }
}
