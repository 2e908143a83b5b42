import SkillGateCore
import SkillGateState

extension SkillExampleWriter {
    /// What the writer did, for the gateway's metrics and log: the writing is the gateway's own spend
    /// (no client's token or budget is charged), so this is where an operator sees it.
    enum Event: Sendable, Equatable {
        /// A model answered one writing call, with or without usable examples: what it spent.
        case answered(model: String, usage: Usage, costUSD: Double?)
        /// One skill is done: its examples were written (`failure == nil`) or none could be (`failure`
        /// says why and what to do).
        case finished(skill: String, failure: String?)
        /// `max_per_hour` skills were written in the last hour; writing waits until `seconds` from now.
        case paused(queued: Int, seconds: Double)
        /// One writing call ended, answered or failed: its usage-ledger row (kind `examples`, no token or
        /// scenario; decision 0049).
        case recorded(UsageRecord)
    }

    /// Receives the writer's events (on its background task; must not block).
    typealias EventSink = @Sendable (Event) -> Void
}

extension SkillExampleWriter {
    /// One log line per event: `skill_examples_call` (model, tokens, cost), `skill_examples_written` or
    /// `skill_examples_failed` (skill, and why with what to do), `skill_examples_paused` (a warning naming
    /// `max_per_hour`). Never a prompt, an answer or a key.
    static func log(_ event: Event, to log: RequestLog) {
        switch event {
        case .answered(let model, let usage, let cost):
            var fields: JSONObject = ["model": .string(model), "input_tokens": .int(usage.inputTokens),
                                      "output_tokens": .int(usage.outputTokens)]
            if let cost { fields.append("cost_usd", .double(cost)) }
            log.event("skill_examples_call", fields)
        case .finished(let skill, nil):
            log.event("skill_examples_written", ["skill": .string(skill)])
        case .finished(let skill, let failure?):
            log.event("skill_examples_failed", ["skill": .string(skill), "error": .string(failure)], level: "warn")
        case .paused(let queued, let seconds):
            log.event("skill_examples_paused", [
                "queued": .int(queued), "resumes_in_s": .int(Int(seconds.rounded(.up))),
                "error": .string("skill_ranking.examples.max_per_hour skills were written in the last hour; the rest wait. "
                                 + "Raise max_per_hour if clients really declare this many new tools, or check which client sends ever-new tool descriptions"),
            ], level: "warn")
        case .recorded:
            break   // the ledger's row; `.answered` and `.finished` already say it in the log
        }
    }
}
