import SkillGateCore
import SkillGateProviders

/// What the skill policy did to one request: for the `x-skillgate-skills` header and the log line.
struct SkillDecision: Sendable, Hashable {
    /// How many tools the client declared.
    var declared = 0
    /// Tools shown to the model, in declaration order.
    var visible: [String] = []
    /// Visible tools that are server-side skills (run by the agent loop), in `visible` order.
    var serverSkills: [String] = []
    /// Declared tools outside the scenario's packs, removed before the request went upstream.
    var removed: [String] = []
    /// Allowed tools cut by relevance ranking, most relevant first.
    var cut: [String] = []
    /// The scenario's `max_visible_skills`.
    var limit: Int?
    /// The tier unusable answers escalate to; `nil` when the scenario does not escalate.
    var escalateTo: ModelTier?
    /// Why the request was escalated (`tool_not_offered`, ...), when it was.
    var escalatedBecause: String?
    /// How the relevance cut was ranked; `nil` when nothing had to be cut.
    var ranking: SkillRanking?

    /// The most UTF-8 bytes each list of names takes in `header`: past it a list ends with `+N`, the number of names
    /// it leaves out (a tool's name never starts with `+`). The log line keeps every name. Without a bound, a request
    /// with a few hundred tools made a header over nginx's default 4 KB buffer for an upstream's head (a 502 behind it),
    /// and a few thousand one over Python's 64 KB header line (decision 0081).
    static let headerListBytes = (visible: 1_024, removed: 512, cut: 512)

    /// `visible=a,b; removed=x; cut=c; max=5; ranking=hybrid; examples=used; blind; selector=chose; escalated=empty_answer`;
    /// `nil` when there is nothing to say. Each list is bounded (`headerListBytes`): `cut=c,d,+40`.
    /// `ranking=` appears when a cut was ranked, `blind` when it was made without any signal (the kept
    /// skills are just the first declared), `selector=` when a selector model was asked (`chose`, or
    /// `failed(<reason>)` when the ranking's cut stood), `examples=` with `skill_ranking.examples`
    /// (`used`, or `pending` while some skill's examples are being written).
    var header: String? {
        guard declared > 0 || !serverSkills.isEmpty || escalatedBecause != nil else { return nil }
        // Appended into one string (it goes on every answer with tools): no array of parts, no joins.
        var header = "visible="
        header.reserveCapacity(96)
        Self.append(visible, within: Self.headerListBytes.visible, to: &header)
        if !removed.isEmpty {
            header += "; removed="
            Self.append(removed, within: Self.headerListBytes.removed, to: &header)
        }
        if !cut.isEmpty {
            header += "; cut="
            Self.append(cut, within: Self.headerListBytes.cut, to: &header)
        }
        if let limit, declared > 0 || !serverSkills.isEmpty { header += "; max=" + String(limit) }
        if let ranking {
            header += "; ranking=" + ranking.mode.label
            if let examples = ranking.examples { header += "; examples=" + examples.rawValue }
            if ranking.cut.blind { header += "; blind" }
            if let selection = ranking.selection { header += "; selector=" + selection.label }
        }
        if let escalatedBecause { header += "; escalated=" + escalatedBecause }
        return header
    }

    /// `names` separated by commas, appended to `header` in at most `budget` bytes: the names that fit, then `+N` for
    /// the `N` left out (a name other than the last is taken only if room for that mark remains after it).
    private static func append(_ names: [String], within budget: Int, to header: inout String) {
        let markBytes = 2 + String(names.count).utf8.count  // ",+N"
        var used = 0
        for (i, name) in names.enumerated() {
            let bytes = (i > 0 ? 1 : 0) + name.utf8.count
            guard used + bytes + (i == names.count - 1 ? 0 : markBytes) <= budget else {
                header += (i > 0 ? ",+" : "+") + String(names.count - i)
                return
            }
            if i > 0 { header += "," }
            header += name
            used += bytes
        }
    }

    /// The log fields (`skills_visible`, `skills_removed`, `skills_cut`; with a ranked cut
    /// `skills_ranking`, and `skills_ranking_reason` / `skills_ranking_error` after a fallback,
    /// `skills_embeddings_ms`, `skills_blind`; with `skill_ranking.examples` `skills_examples` (`used` / `pending`) and
    /// `skills_examples_error` (why the latest skill's examples could not be written);
    /// with a selector `skills_selector` (`chose` / `failed`),
    /// `skills_selector_reason`, `skills_selector_error`, `skills_selector_model`, `skills_selector_chosen`,
    /// its tokens, `skills_selector_cost_usd` and `skills_selector_ms`).
    func appendLogFields(to o: inout JSONObject) {
        guard declared > 0 || !serverSkills.isEmpty else { return }
        o.append("skills_visible", .array(visible.map(JSONValue.string)))
        if !serverSkills.isEmpty { o.append("skills_server", .array(serverSkills.map(JSONValue.string))) }
        if !removed.isEmpty { o.append("skills_removed", .array(removed.map(JSONValue.string))) }
        if !cut.isEmpty { o.append("skills_cut", .array(cut.map(JSONValue.string))) }
        guard let ranking else { return }
        o.append("skills_ranking", .string(ranking.mode.name))
        o.append("skills_ranking_reason", ifPresent: ranking.fallbackReason.map(JSONValue.string))
        o.append("skills_ranking_error", ifPresent: ranking.fallbackMessage.map(JSONValue.string))
        o.append("skills_embeddings_ms", ifPresent: ranking.semanticMilliseconds.map { .double($0) })
        if ranking.cut.blind { o.append("skills_blind", true) }
        o.append("skills_examples", ifPresent: ranking.examples.map { .string($0.rawValue) })
        o.append("skills_examples_error", ifPresent: ranking.examplesError.map(JSONValue.string))
        guard let selection = ranking.selection else { return }
        o.append("skills_selector", .string(selection.failureReason == nil ? "chose" : "failed"))
        o.append("skills_selector_reason", ifPresent: selection.failureReason.map(JSONValue.string))
        o.append("skills_selector_error", ifPresent: selection.message.map(JSONValue.string))
        o.append("skills_selector_model", ifPresent: selection.model.map(JSONValue.string))
        if selection.failureReason == nil { o.append("skills_selector_chosen", .array(selection.chosen.map(JSONValue.string))) }
        if let usage = selection.usage {
            o.append("skills_selector_input_tokens", .int(usage.inputTokens))
            o.append("skills_selector_output_tokens", .int(usage.outputTokens))
        }
        o.append("skills_selector_cost_usd", ifPresent: selection.costUSD.map { .double(($0 * 1e8).rounded() / 1e8) })
        o.append("skills_selector_ms", .double(selection.milliseconds))
    }
}
