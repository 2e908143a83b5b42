import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateRouting
import Synchronization

/// One line of the request log: everything an operator needs, nothing secret.
struct RequestLogEntry: Sendable {
    var time = Date()
    var requestId: String
    var method: String
    var path: String
    var status = 0
    var tokenName: String?
    /// The token's id (for the usage ledger; not written to the log line).
    var tokenId: String?
    var surface: String?
    var scenario: String?
    var provider: String?
    var model: String?
    var route: String?
    var stream = false
    /// What the response cache did (`hit`, `miss`, `refresh`, `bypass`); nil when the request's scenario does not cache
    /// (decision 0140).
    var cache: ResponseCacheOutcome?
    /// A hit's entry's age in whole seconds.
    var cacheAgeSeconds: Int?
    /// How long the request waited for an identical request's answer under way (`coalesce_seconds`, decision 0172).
    var cacheWaitMs: Double?
    var totalMs = 0.0
    var upstreamMs: Double?
    var usage: Usage?
    /// Whether `usage` was estimated from the text relayed, as the provider reported none (decision 0104), or the usage
    /// of a failed attempt in `unusableUsage` was (a prompt-tools stream ended at a malformed call, decision 0120).
    var usageEstimated = false
    var costUSD: Double?
    /// What an answer that was unusable and re-run on a stronger tier, and the failed answers of attempts that were
    /// tried again (decision 0117), used and cost (counted by the ledger, budgets and metrics beside `usage` and
    /// `costUSD`, which are the answer's).
    var unusableUsage: Usage?
    var unusableCostUSD: Double?
    /// What `unusableUsage` and `unusableCostUSD` are made of, one entry per deployment that spent them (its failed
    /// attempts' and an escalated unusable answer's usage, cost at its own price, the attempts counted): an agent run's
    /// call rows count each under the model that spent it (decision 0123).
    var unusableSpend: [ModelCallUsage] = []
    var attempts: [AttemptLogItem] = []
    var error: String?
    /// The kind of `error` (also for a stream that failed after its status 200 was sent).
    var errorKind: GatewayError.Kind?
    /// The attempts as values (for metrics and the ledger); `attempts` holds them for the log line, with its notes.
    var attemptRecords: [AttemptRecord] = []
    /// An agent run's model calls, one each (for the ledger's per-call rows); empty for other requests.
    var modelCalls: [ModelCallUsage] = []
    /// How many of `modelCalls`' ledger rows were written while the run went on (`PaidCallRows`, decision 0148): not
    /// written again with the run's row.
    var modelCallsWritten = 0
    /// What the run's spend already counted against its limits while it went on (`RunSpending`), in microdollars: the
    /// request's release counts only the rest of its cost.
    var spendCountedInLimits: Int64 = 0
    /// The same for the run's tokens (`tokens_per_minute`, decision 0150).
    var tokensCountedInLimits: Int64 = 0
    /// The skill policy's decision (visible, removed, cut); see `SkillDecision`.
    var skills: SkillDecision?
    /// How many times an unusable answer was re-run on a stronger tier.
    var escalations = 0
    /// Model calls of an agent run (`nil` when the request ran no agent loop).
    var agentIterations: Int?
    /// Server-side skills an agent run executed.
    var skillsRun: [String] = []

    /// The most bytes of `error` a log line or a traffic event keeps. Error messages quote what callers, upstreams and
    /// skills sent; each place that quotes bounds its quote, and this bounds what one forgot (decision 0113).
    static let maxErrorBytes = 4_096

    /// `error` cut to `maxErrorBytes` (on a character boundary, with the length it had), for the log line and the
    /// console's traffic rows.
    var boundedError: String? {
        guard let error, error.utf8.count > Self.maxErrorBytes else { return error }
        var kept = Substring(), bytes = 0
        for c in error {
            bytes += c.utf8.count
            guard bytes <= Self.maxErrorBytes else { break }
            kept.append(c)
        }
        return String(kept) + "… (error cut at \(Self.maxErrorBytes) of \(error.utf8.count) bytes)"
    }

    /// About how many bytes the entry holds (its fixed part and its texts of variable length), for the log queue's
    /// bound in bytes (`LogWriter`). Counts, it does not format: a native string knows its UTF-8 length.
    var approximateBytes: Int {
        func names(_ list: [String]) -> Int { list.reduce(0) { $0 + $1.utf8.count + 8 } }
        var bytes = 1_024 + path.utf8.count + (error?.utf8.count ?? 0) + attempts.count * 256 + names(skillsRun)
        if let skills { bytes += names(skills.visible) + names(skills.serverSkills) + names(skills.removed) + names(skills.cut) }
        return bytes
    }

    /// Adds what `deployment` (of `provider`) spent on an answer that was not the request's answer — a failed attempt
    /// that was tried again (decision 0117), an unusable answer that was escalated — to the unusable usage and cost
    /// (either may be nil: nothing to add), and to that deployment's entry of `unusableSpend`.
    mutating func addUnusable(_ usage: Usage?, costUSD: Double?, by deployment: String, provider: String?) {
        guard usage != nil || costUSD != nil else { return }
        if let usage { unusableUsage = (unusableUsage ?? Usage()) + usage }
        if let costUSD { unusableCostUSD = (unusableCostUSD ?? 0) + costUSD }
        guard let i = unusableSpend.firstIndex(where: { $0.model == deployment }) else {
            unusableSpend.append(ModelCallUsage(provider: provider, model: deployment, usage: usage, costUSD: costUSD, attempts: 1,
                                                outcome: GatewayError.Kind.upstreamError.rawValue))
            return
        }
        if let usage { unusableSpend[i].usage = (unusableSpend[i].usage ?? Usage()) + usage }
        if let costUSD { unusableSpend[i].costUSD = (unusableSpend[i].costUSD ?? 0) + costUSD }
        unusableSpend[i].attempts += 1
    }

    /// Usage of the request's answers: the answer's plus an escalated unusable answer's (what the metrics count
    /// under the request's model).
    var answersUsage: Usage? {
        guard let unusableUsage else { return usage }
        return (usage ?? Usage()) + unusableUsage
    }

    /// Cost of the request's answers: the answer's plus an escalated unusable answer's.
    var answersCostUSD: Double? {
        guard let unusableCostUSD else { return costUSD }
        return (costUSD ?? 0) + unusableCostUSD
    }

    /// The skill selector's call, when one was made (`skill_ranking.selector`; decision 0043); its `usage` and `costUSD`
    /// are set when the model answered.
    var selection: SkillSelection? { skills?.ranking?.selection }

    /// Usage of the whole request: its answers' and the skill selector's call (budgets and the usage ledger).
    var spentUsage: Usage? {
        guard let selected = selection?.usage else { return answersUsage }
        return (answersUsage ?? Usage()) + selected
    }

    /// Cost of the whole request: its answers' and the skill selector's call.
    var spentUSD: Double? {
        guard let selected = selection?.costUSD else { return answersCostUSD }
        return (answersCostUSD ?? 0) + selected
    }

    /// `ok`; the error kind of a request that failed (before or after its answer started); `client_gone` when the
    /// client left (499).
    var outcome: String {
        if status == 499 { return "client_gone" }
        if let errorKind { return errorKind.rawValue }
        if status >= 400 || error != nil { return status >= 500 ? GatewayError.Kind.internalError.rawValue : GatewayError.Kind.invalidRequest.rawValue }
        return "ok"
    }

    /// The entry as one compact JSON object. A stream that ended in an error is a warning (its status is the 200
    /// sent at its start; `outcome` says how it ended).
    func json() -> JSONValue {
        var o = JSONObject()
        o.append("time", .string(RequestLog.timestamp(time)))
        o.append("level", .string(status >= 500 ? "error" : (status >= 400 || error != nil ? "warn" : "info")))
        o.append("request_id", .string(requestId))
        o.append("method", .string(method))
        o.append("path", .string(path))
        o.append("status", .int(status))
        o.append("token", ifPresent: tokenName.map(JSONValue.string))
        o.append("surface", ifPresent: surface.map(JSONValue.string))
        o.append("scenario", ifPresent: scenario.map(JSONValue.string))
        o.append("provider", ifPresent: provider.map(JSONValue.string))
        o.append("model", ifPresent: model.map(JSONValue.string))
        o.append("route", ifPresent: route.map(JSONValue.string))
        o.append("stream", .bool(stream))
        o.append("cache", ifPresent: cache.map { .string($0.rawValue) })
        o.append("cache_age_s", ifPresent: cacheAgeSeconds.map { .int($0) })
        o.append("cache_wait_ms", ifPresent: cacheWaitMs.map { .double(($0 * 100).rounded() / 100) })
        o.append("total_ms", .double((totalMs * 100).rounded() / 100))
        o.append("upstream_ms", ifPresent: upstreamMs.map { .double(($0 * 100).rounded() / 100) })
        if let usage {
            o.append("input_tokens", .int(usage.inputTokens))
            o.append("output_tokens", .int(usage.outputTokens))
            if usage.cachedInputTokens > 0 { o.append("cached_input_tokens", .int(usage.cachedInputTokens)) }
            if usage.cacheWriteTokens > 0 { o.append("cache_write_tokens", .int(usage.cacheWriteTokens)) }
            if usageEstimated { o.append("usage_estimated", .bool(true)) }
        }
        o.append("cost_usd", ifPresent: costUSD.map { .double(($0 * 1e8).rounded() / 1e8) })
        if !attempts.isEmpty { o.append("attempts", .array(attempts.map { .string($0.text) })) }
        skills?.appendLogFields(to: &o)
        if escalations > 0 { o.append("escalations", .int(escalations)) }
        if let unusableUsage {
            // The unusable answer that was escalated: paid for too (the ledger and budgets count it; decision 0108).
            o.append("unusable_input_tokens", .int(unusableUsage.inputTokens))
            o.append("unusable_output_tokens", .int(unusableUsage.outputTokens))
            o.append("unusable_cost_usd", ifPresent: unusableCostUSD.map { .double(($0 * 1e8).rounded() / 1e8) })
            if usageEstimated, usage == nil { o.append("usage_estimated", .bool(true)) }  // a failed attempt's (decision 0120)
        }
        o.append("agent_iterations", ifPresent: agentIterations.map { .int($0) })
        if agentIterations != nil || !skillsRun.isEmpty { o.append("skills_run", .array(skillsRun.map(JSONValue.string))) }
        if error != nil || status >= 400 { o.append("outcome", .string(outcome)) }
        o.append("error", ifPresent: boundedError.map(JSONValue.string))
        return .object(o)
    }
}

/// The request log: JSON lines on stderr (or any file descriptor), formatted and written by a `LogWriter` off the
/// event loops, one line per request or event, in order.
final class RequestLog: Sendable {
    private let writer: LogWriter?

    init(fd: Int32 = 2, enabled: Bool = true) {
        writer = enabled ? LogWriter(fd: fd) : nil
    }

    func write(_ entry: RequestLogEntry) {
        writer?.enqueue(.entry(entry))
    }

    /// Writes an event that is not a request (startup, shutdown, key reload).
    func event(_ message: String, _ fields: JSONObject = [:], level: String = "info") {
        var o: JSONObject = ["time": .string(Self.timestamp(Date())), "level": .string(level), "event": .string(message)]
        for m in fields { o.append(m.key, m.value) }
        writer?.enqueue(.event(.object(o)))
    }

    /// Releases a couple of written lines the calling thread logged (an event loop spinning for an answer; decision
    /// 0109).
    func releaseSomeWritten() {
        writer?.releaseSomeWritten()
    }

    /// Waits until every line logged so far is written (bounded; see `LogWriter.flush`).
    func flush() {
        writer?.flush()
    }

    /// Writes what is pending and stops the writer thread; later lines are dropped.
    func close() {
        writer?.close()
    }

    /// RFC 3339 UTC with milliseconds (`2026-11-30T07:16:31.475Z`), formatted by hand into one 24-byte
    /// buffer, the date by arithmetic (`CivilTime.civil`): `String(format:)` cost more than the rest of the log
    /// line, and `gmtime_r` with a small array per field was still ~8k instructions per request.
    static func timestamp(_ date: Date) -> String {
        let ms = Int((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = CivilTime.civil(daysSince1970: days)
        let secondOfDay = seconds - days * 86_400
        return String(unsafeUninitializedCapacity: 24) { out in
            func put(_ value: Int, _ width: Int, at offset: Int) {
                var v = value
                for i in stride(from: offset + width - 1, through: offset, by: -1) { out[i] = UInt8(0x30 + v % 10); v /= 10 }
            }
            put(year, 4, at: 0); out[4] = 0x2D; put(month, 2, at: 5); out[7] = 0x2D; put(day, 2, at: 8)
            out[10] = 0x54; put(secondOfDay / 3600, 2, at: 11); out[13] = 0x3A; put(secondOfDay / 60 % 60, 2, at: 14)
            out[16] = 0x3A; put(secondOfDay % 60, 2, at: 17); out[19] = 0x2E; put(ms - seconds * 1000, 3, at: 20); out[23] = 0x5A
            return 24
        }
    }
}

extension RequestLogEntry {
    /// An entry for a request to `target` (its path and query as the client sent them), kept within `targetWindow`.
    /// `time` is when the request came, on the gateway's wall clock (the one of limit windows: its usage rows must fall
    /// in the windows its limits were counted in).
    init(requestId: String, method: String, target: String, time: Date = Date()) {
        self.init(time: time, requestId: requestId, method: method, path: Self.targetWindow.apply(target, joinedBy: " … "))
    }

    /// What the log keeps of a request's target: its first 768 and last 256 UTF-8 bytes. A request line may be up to
    /// the head's 64 KiB, and anyone may send one, token or not: kept whole, each such request wrote ~64 KB to the log
    /// and held as much in the log's queue while the log's reader was slow.
    static let targetWindow = TextWindow(headBytes: 768, tailBytes: 256)
}
