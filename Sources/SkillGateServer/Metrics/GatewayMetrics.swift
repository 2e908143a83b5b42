import SkillGateCore
import SkillGateRouting
import Synchronization

/// The gateway's Prometheus metrics, counted in memory and rendered by hand in the text exposition format at
/// `GET /metrics` (decision 0027). Updating one is a lock and a few dictionary writes in the account stage;
/// no label carries a token, a secret or a request id.
final class GatewayMetrics: Sendable {
    struct Families: Sendable {
        var requests = MetricFamily("skillgate_requests_total", .counter,
                                    "Requests answered, by surface, HTTP status, outcome (ok, an error kind, client_gone), scenario and model.",
                                    labels: ["surface", "status", "outcome", "scenario", "model"])
        var duration = MetricFamily("skillgate_request_duration_seconds", .histogram, "Time from request to the end of the answer, by surface.",
                                    labels: ["surface"], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120])
        var upstream = MetricFamily("skillgate_upstream_seconds", .histogram,
                                    "Upstream time by provider: for streams until the first event (time to first byte), else until the whole answer.",
                                    labels: ["provider", "stream"], buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120])
        var tokens = MetricFamily("skillgate_tokens_total", .counter, "Tokens by model and direction (input, output; cached_input and cache_write count the part of the input read from or written to the provider's prompt cache).", labels: ["model", "direction"])
        var cost = MetricFamily("skillgate_cost_usd_total", .counter, "Cost in US dollars from the catalog prices, by model.", labels: ["model"])
        var attempts = MetricFamily("skillgate_upstream_attempts_total", .counter, "Upstream attempts by deployment and outcome (ok, failed, skipped; stream_failed: a stream that failed because of the upstream after its first event).",
                                    labels: ["model", "outcome"])
        var fallbacks = MetricFamily("skillgate_fallbacks_total", .counter, "Times a request moved on to another deployment, by scenario.",
                                     labels: ["scenario"])
        var cooldowns = MetricFamily("skillgate_cooldown_skips_total", .counter, "Deployments skipped because they were cooling down.",
                                     labels: ["model"])
        var keyFailures = MetricFamily("skillgate_key_failures_total", .counter,
                                       "Upstream answers that refused a pooled key itself (a 401 or 429, or the provider's key error), by deployment and key name; the key cools down. Other failed attempts are in skillgate_upstream_attempts_total.",
                                       labels: ["model", "key"])
        var escalations = MetricFamily("skillgate_escalations_total", .counter, "Unusable answers re-run on a stronger tier, by scenario.",
                                       labels: ["scenario"])
        var skills = MetricFamily("skillgate_skill_runs_total", .counter, "Server-side skill runs by skill and outcome (ok, error).",
                                  labels: ["skill", "outcome"])
        var skillCuts = MetricFamily("skillgate_skill_cuts_total", .counter,
                                     "Relevance cuts of the visible skills, by how they were ranked (hybrid, lexical, lexical_fallback: the embedding model failed or was late).",
                                     labels: ["ranking"])
        var selections = MetricFamily("skillgate_skill_selector_total", .counter,
                                      "Selector model calls by outcome (chose, or why the ranking's cut was used: selector_timeout, selector_http_<status>, selector_failed, selector_unparsable, cancelled).",
                                      labels: ["outcome"])
        var examples = MetricFamily("skillgate_skill_examples_total", .counter,
                                    "Skills whose example requests the gateway wrote (skill_ranking.examples), by outcome (written, failed); the writing calls' tokens and cost count under their model.",
                                    labels: ["outcome"])
        var rejections = MetricFamily("skillgate_limit_rejections_total", .counter, "Requests refused by a limit or budget, by limit and scope (token, scenario).",
                                      labels: ["limit", "scope"])
        var inFlight = MetricFamily("skillgate_in_flight_requests", .gauge, "Requests being answered now.")
        var inFlightStreams = MetricFamily("skillgate_in_flight_streams", .gauge, "Streamed answers and agent runs being answered now.")
        /// The slots a kind of request counts under, by what names its series (see `RequestSeries`).
        var requestSlots: [RequestSeries: RequestSlots] = [:]

        /// The slots of `series`, looked up in each family the first time it is seen (at most `maxSeries` kinds are
        /// kept; past that each request looks its series up family by family, as before the cache).
        mutating func slots(_ series: RequestSeries) -> RequestSlots {
            if let slots = requestSlots[series] { return slots }
            let slots = RequestSlots(
                requests: requests.slot([series.surface, String(series.status), series.outcome, series.scenario, series.model]),
                duration: duration.slot([series.surface]),
                upstream: series.provider.map { upstream.slot([$0, series.stream ? "true" : "false"]) },
                inputTokens: tokens.slot([series.model, "input"]), outputTokens: tokens.slot([series.model, "output"]),
                cost: cost.slot([series.model]),
                attemptSucceeded: series.succeededDeployment.map { attempts.slot([$0, "ok"]) })
            if requestSlots.count < MetricFamily.maxSeries { requestSlots[series] = slots }
            return slots
        }

        /// The part of the input read from or written to the provider's prompt cache.
        mutating func cacheTokens(_ usage: Usage, model: String) {
            if usage.cachedInputTokens > 0 { tokens.add(Double(usage.cachedInputTokens), [model, "cached_input"]) }
            if usage.cacheWriteTokens > 0 { tokens.add(Double(usage.cacheWriteTokens), [model, "cache_write"]) }
        }

        /// A relevance cut, and the selector's call when one was made (its tokens and cost count under its model).
        mutating func countSkillCut(_ ranking: SkillRanking) {
            skillCuts.add(1, [ranking.mode.name])
            guard let selection = ranking.selection else { return }
            selections.add(1, [selection.failureReason ?? "chose"])
            if let usage = selection.usage, let model = selection.model {
                tokens.add(Double(usage.inputTokens), [model, "input"])
                tokens.add(Double(usage.outputTokens), [model, "output"])
                if let spent = selection.costUSD { cost.add(spent, [model]) }
            }
        }

        /// Attempts by outcome, key failures, cooldown skips, and a fallback each time the deployment changed.
        mutating func countAttempts(_ records: [AttemptRecord], scenario: String) {
            var last: String?
            for a in records {
                switch a.outcome {
                case .succeeded: attempts.add(1, [a.deployment, "ok"])
                case .failed:
                    attempts.add(1, [a.deployment, "failed"])
                    if let key = a.key, a.keyRefused { keyFailures.add(1, [a.deployment, key]) }
                case .failedMidStream:
                    attempts.add(1, [a.deployment, "stream_failed"])
                case .skipped(let reason):
                    attempts.add(1, [a.deployment, "skipped"])
                    if reason.contains("cooling") { cooldowns.add(1, [a.deployment]) }
                    continue
                }
                if let last, last != a.deployment { fallbacks.add(1, [scenario]) }
                last = a.deployment
            }
        }
    }

    private let families = Mutex(Families())
    /// `metrics.enabled`: when false, nothing is counted (the request path skips the lock too).
    let enabled: Bool

    init(enabled: Bool = true) {
        self.enabled = enabled
    }

    /// A request entered the answering stages.
    func started(stream: Bool) {
        guard enabled else { return }
        families.locked { f in
            f.inFlight.add(1, [])
            if stream { f.inFlightStreams.add(1, []) }
        }
    }

    /// A request left them (paired with `started`).
    func ended(stream: Bool) {
        guard enabled else { return }
        families.locked { f in
            f.inFlight.add(-1, [])
            if stream { f.inFlightStreams.add(-1, []) }
        }
    }

    /// Counts a finished request from its log entry: one lookup of the kind of request it is (`RequestSeries`), then
    /// the counters and histograms by slot; agent runs' model calls, cache tokens, failed or several attempts and
    /// escalations by their labels.
    func finished(_ e: RequestLogEntry, outcome: String) {
        guard enabled else { return }
        let scenario = e.scenario ?? "", model = e.model ?? ""
        var succeeded: String?
        if e.attemptRecords.count == 1, case .succeeded = e.attemptRecords[0].outcome { succeeded = e.attemptRecords[0].deployment }
        let series = RequestSeries(surface: e.surface ?? "none", status: e.status, outcome: outcome, scenario: scenario, model: model,
                                   provider: e.upstreamMs == nil ? nil : e.provider, stream: e.stream, succeededDeployment: succeeded)
        families.locked { f in
            let slots = f.slots(series)
            f.requests.add(1, slot: slots.requests)
            f.duration.observe(e.totalMs / 1000, slot: slots.duration)
            if let ms = e.upstreamMs, let upstream = slots.upstream { f.upstream.observe(ms / 1000, slot: upstream) }
            if e.modelCalls.isEmpty {
                if let usage = e.answersUsage {
                    f.tokens.add(Double(usage.inputTokens), slot: slots.inputTokens)
                    f.tokens.add(Double(usage.outputTokens), slot: slots.outputTokens)
                    f.cacheTokens(usage, model: model)
                    if let cost = e.answersCostUSD { f.cost.add(cost, slot: slots.cost) }
                }
            } else {
                for call in e.modelCalls {
                    guard let usage = call.usage else { continue }
                    f.tokens.add(Double(usage.inputTokens), [call.model, "input"])
                    f.tokens.add(Double(usage.outputTokens), [call.model, "output"])
                    f.cacheTokens(usage, model: call.model)
                    if let cost = call.costUSD { f.cost.add(cost, [call.model]) }
                }
            }
            if let attempt = slots.attemptSucceeded {
                f.attempts.add(1, slot: attempt)
            } else {
                f.countAttempts(e.attemptRecords, scenario: scenario)
            }
            if e.escalations > 0 { f.escalations.add(Double(e.escalations), [scenario]) }
            if let ranking = e.skills?.ranking { f.countSkillCut(ranking) }
        }
    }

    /// Counts one server-side skill run.
    func skillRan(_ skill: String, ok: Bool) {
        guard enabled else { return }
        families.locked { $0.skills.add(1, [skill, ok ? "ok" : "error"]) }
    }

    /// Counts one request refused by `limit` of a token or scenario.
    func limitRejected(_ limit: String, scope: String) {
        guard enabled else { return }
        families.locked { $0.rejections.add(1, [limit, scope]) }
    }

    /// What the examples writer did (`skill_ranking.examples`): the gateway's own spend, charged to no client.
    func countExampleWriting(_ event: SkillExampleWriter.Event) {
        guard enabled else { return }
        families.locked { f in
            switch event {
            case .answered(let model, let usage, let cost):
                f.tokens.add(Double(usage.inputTokens), [model, "input"])
                f.tokens.add(Double(usage.outputTokens), [model, "output"])
                f.cacheTokens(usage, model: model)
                if let cost { f.cost.add(cost, [model]) }
            case .finished(_, let failure):
                f.examples.add(1, [failure == nil ? "written" : "failed"])
            case .paused, .recorded:
                break
            }
        }
    }

    /// Every family in the text exposition format.
    func render() -> String {
        let f = families.locked { $0 }
        var out = ""
        out.reserveCapacity(8192)
        for family in [f.requests, f.duration, f.upstream, f.tokens, f.cost, f.attempts, f.fallbacks, f.cooldowns, f.keyFailures, f.escalations, f.skills,
                       f.skillCuts, f.selections, f.examples, f.rejections, f.inFlight, f.inFlightStreams] {
            family.render(into: &out)
        }
        return out
    }
}

/// What names the series a finished request counts under: the same for every request of one kind (surface, status,
/// outcome, scenario, model; the provider when it was called; the deployment when one attempt answered), so its slots
/// in each family are looked up once and kept.
struct RequestSeries: Hashable, Sendable {
    var surface: String
    var status: Int
    var outcome: String
    var scenario: String
    var model: String
    /// Nil when the upstream was not reached (no upstream time to observe).
    var provider: String?
    var stream: Bool
    /// The deployment of the request's only attempt, when it succeeded (the common case); nil otherwise, and the
    /// attempts are counted by their labels.
    var succeededDeployment: String?
}

/// The slots of one `RequestSeries` in each family.
struct RequestSlots: Sendable {
    var requests: Int
    var duration: Int
    var upstream: Int?
    var inputTokens: Int
    var outputTokens: Int
    var cost: Int
    var attemptSucceeded: Int?
}

/// One model call's usage, for the ledger's per-call rows and the token and cost counters.
struct ModelCallUsage: Sendable {
    var provider: String?
    var model: String
    var usage: Usage?
    var costUSD: Double?
    var upstreamMs: Double = 0
    var attempts = 0
    var outcome = "ok"

    init(provider: String? = nil, model: String, usage: Usage?, costUSD: Double?, upstreamMs: Double = 0, attempts: Int = 0, outcome: String = "ok") {
        self.provider = provider
        self.model = model
        self.usage = usage
        self.costUSD = costUSD
        self.upstreamMs = upstreamMs
        self.attempts = attempts
        self.outcome = outcome
    }
}
