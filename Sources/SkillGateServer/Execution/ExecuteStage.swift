import SkillGateCore
import SkillGateRouting

/// What one model call produced: the answer, whole or streaming, or an answer the call's policy
/// says is unusable (re-run it on the escalation tier). Escalation is this value, not an error.
enum Execution {
    case answered(ChatResponse, RouteTarget)
    case streaming(UpstreamStream)
    case unusable(UnusableAnswer, RouteTarget)
}

/// The execute stage: runs a prepared request along a route plan through the `RouteExecutor`
/// (attempts, fallbacks, cooldowns), checks the answer (`AnswerCheck`), and re-runs an unusable
/// answer on the escalation plan before anything reached the client. Records attempts, the
/// answering deployment, upstream time and escalations in the request's log line.
struct ExecuteStage: Sendable {
    let executor: RouteExecutor

    /// The answer to `call`, whole (`stream` false) or streaming, after at most one escalation.
    func run(_ call: PreparedCall, stream: Bool, _ ctx: inout RequestContext) async throws -> Execution {
        let caller = call.client.tokenId
        let first = try await once(call.request, plan: call.plan, policy: call.answers, stream: stream, caller: caller, &ctx.log)
        guard case .unusable(let unusable, let target) = first, let escalation = call.escalation, let tier = call.skills.escalateTo,
              !Task.isCancelled else { return first }
        ctx.log.attempts.append(.note("\(target.qualifiedName): unusable answer (\(unusable.reason)), escalated"))
        ctx.log.escalations += 1
        ctx.log.skills?.escalatedBecause = unusable.reason
        ctx.log.route = (ctx.log.route.map { $0 + "; " } ?? "") + "escalated to \(tier.rawValue): \(unusable.reason)"
        // The unusable answer was paid for: the ledger, budgets and metrics count it beside the escalated one (and
        // beside the failed answers of earlier attempts, which `once` put there).
        ctx.log.addUnusable(ctx.log.usage, costUSD: ctx.log.costUSD, by: target.qualifiedName, provider: target.provider.id)
        ctx.log.usage = nil
        ctx.log.costUSD = nil
        return try await once(call.request, plan: escalation, policy: call.answers.escalated, stream: stream, caller: caller, &ctx.log)
    }

    /// One call along `plan`: attempts and fallbacks, then the answer checks. A streamed answer from
    /// a model whose answers escalate is read whole first, inside its attempt (it is checked before its
    /// first byte is sent; one that breaks before its end falls back like a failed attempt, decision
    /// 0107), and replayed. `caller`: the client token's id, to which the deployments' failures are attributed. The
    /// failed answers of attempts that were tried again (decision 0117) were paid for: their usage is added to the
    /// log's unusable usage, which the ledger, budgets and metrics count; so is the input of attempts that timed out after
    /// their request went out (decision 0130).
    func once(_ request: ChatRequest, plan: RoutePlan, policy: AnswerPolicy, stream: Bool, caller: String?,
              _ log: inout RequestLogEntry) async throws -> Execution {
        var attempts: [AttemptRecord] = []
        var droppedCalls = 0
        let start = ContinuousClock.now
        defer {
            // As values: their text is made when the log line is written, not on the way to the first byte.
            log.attempts += attempts.map(AttemptLogItem.attempt)
            if droppedCalls > 0 { log.attempts.append(.note(SingleToolCall.note(droppedCalls))) }
            log.attemptRecords += attempts
            Self.addFailedAnswers(attempts, plan, &log)
            Self.chargeInputOfTimedOutAttempts(attempts, request, plan, &log)
        }
        let escalates = { (target: RouteTarget) in policy.escalates(target.qualifiedName) }
        if !stream {
            let response: ChatResponse, target: RouteTarget
            do {
                (response, target) = try await executor.complete(request, plan: plan, caller: caller, attempts: &attempts, escalates: escalates)
            } catch {
                let tried = Self.lastTried(attempts, plan)
                Self.note(tried, start, &log)
                if let tried, let u = AnswerCheck.unusable(error, target: tried.qualifiedName, policy: policy) { return .unusable(u, tried) }
                Self.chargeIfLeftDuringAnAttempt(error, attempts, request, plan, read: [], &log)
                throw error
            }
            Self.note(target, start, &log)
            let (usage, estimated) = StreamSpend.spent(by: response, for: request)
            log.usage = usage
            log.usageEstimated = log.usageEstimated || estimated
            log.costUSD = target.model.price?.cost(of: usage)
            // With `parallel_tool_calls: false`, the calls after the first are dropped before the answer is checked: they
            // are not handed on, so they cannot make it unusable (decision 0135).
            var answer = response
            if request.parallelToolCalls == false { (answer, droppedCalls) = SingleToolCall.keepingTheFirstCall(of: response) }
            if let u = try AnswerCheck.check(answer, offered: request.tools, target: target, policy: policy) { return .unusable(u, target) }
            return .answered(answer, target)
        }
        var upstream: UpstreamStream
        var read: [ChatStreamEvent] = []
        do {
            upstream = try await executor.openStream(request, plan: plan, caller: caller, attempts: &attempts, readBeforeFailing: &read,
                                                     escalates: escalates)
        } catch {
            let tried = Self.lastTried(attempts, plan)
            Self.note(tried, start, &log)
            if let tried, let u = AnswerCheck.unusable(error, target: tried.qualifiedName, policy: policy) { return .unusable(u, tried) }
            Self.chargeIfLeftDuringAnAttempt(error, attempts, request, plan, read: read, &log)
            throw error
        }
        Self.note(upstream.target, start, &log)
        let target = upstream.target
        let single = request.parallelToolCalls == false ? SingleToolCall() : nil
        guard policy.escalates(target.qualifiedName) else {
            if !policy.invisibleCallsToModel {
                upstream.offered = UpstreamStream.offering(request.tools.map(\.name), scenario: policy.scenario)
            }
            upstream.singleToolCall = single
            return .streaming(upstream)
        }
        // A replay: `openStream` read the stream whole inside its attempt (`escalates`). The calls the replay will drop
        // are dropped before the answer is checked, as for a whole answer.
        var events: [ChatStreamEvent] = []
        var answer = ChatResponseAccumulator()
        var checked = single
        do {
            while let event = try await upstream.next() {
                events.append(event)
                if checked?.drops(event) != true { answer.apply(event) }
            }
        } catch {
            if let u = AnswerCheck.unusable(error, target: target.qualifiedName, policy: policy) { return .unusable(u, target) }
            throw error
        }
        if let u = try AnswerCheck.check(answer.response, offered: request.tools, target: target, policy: policy) {
            log.usage = answer.response.usage
            log.costUSD = target.model.price?.cost(of: answer.response.usage)
            return .unusable(u, target)
        }
        var replay = UpstreamStream(replaying: events, target: target, affinity: executor.affinity)
        replay.singleToolCall = single
        return .streaming(replay)
    }

    /// Adds what the failed answers among `attempts` used, and cost at their deployments' prices, to the log's unusable
    /// usage (decision 0117), each under the deployment that failed (decision 0123); the log line is marked estimated
    /// when one of them was (a prompt-tools stream whose malformed call came before its usage, decision 0120).
    static func addFailedAnswers(_ attempts: [AttemptRecord], _ plan: RoutePlan, _ log: inout RequestLogEntry) {
        for attempt in attempts {
            guard let failed = attempt.failedAnswer else { continue }
            let target = plan.targets.first { $0.qualifiedName == attempt.deployment }
            log.addUnusable(failed.usage, costUSD: target?.model.price?.cost(of: failed.usage), by: attempt.deployment,
                            provider: target?.provider.id)
            if failed.usageEstimated { log.usageEstimated = true }
        }
    }

    /// Each attempt that timed out after its request went out (`AttemptRecord.timedOutAfterSending`: the first-byte, idle
    /// or total timeout, not the connect timeout) is charged an estimate of the input it sent, and no output, as unusable
    /// spend under the deployment that timed out, at its price, and the log line is marked estimated (decision 0130): the
    /// provider had the prompt and most likely billed it. A provider's own timeout answer (a 504 or 408 it sent) is not
    /// charged: the provider said it failed.
    static func chargeInputOfTimedOutAttempts(_ attempts: [AttemptRecord], _ request: ChatRequest, _ plan: RoutePlan,
                                              _ log: inout RequestLogEntry) {
        var input: Usage?
        for attempt in attempts where attempt.timedOutAfterSending {
            let usage = input ?? Usage(inputTokens: UsageEstimate.tokens(bytes: UsageEstimate.inputBytes(of: request)), outputTokens: 0)
            input = usage
            let target = plan.targets.first { $0.qualifiedName == attempt.deployment }
            log.addUnusable(usage, costUSD: target?.model.price?.cost(of: usage), by: attempt.deployment, provider: target?.provider.id)
            log.usageEstimated = true
        }
    }

    /// A call whose client left (its task cancelled) while a deployment had the request, before the whole answer or a
    /// stream's first event, is charged an estimate of the input it sent, at that deployment's price, and marked
    /// estimated (decision 0126): the provider has the prompt and may bill it, and without a charge a client could send
    /// long prompts and leave each one early, past any budget or token limit. `read`: the events the attempt had read of
    /// a stream read whole to be checked (an escalating model's), counted as a relayed stream's are (`StreamSpend`: the
    /// output seen, estimated, or the usage the provider reported): the provider wrote them, though none reached the
    /// client (decision 0128). Otherwise nothing came out, so no output is charged. A call that left while waiting between
    /// attempts, or whose usage is already known, is left alone.
    static func chargeIfLeftDuringAnAttempt(_ error: any Error, _ attempts: [AttemptRecord], _ request: ChatRequest, _ plan: RoutePlan,
                                            read: [ChatStreamEvent], _ log: inout RequestLogEntry) {
        guard log.usage == nil, let last = attempts.last, case .failed(_, .cancelled) = last.outcome,
              error is CancellationError || GatewayError.from(error).kind == .cancelled else { return }
        var spend = StreamSpend(inputOf: request)
        for event in read { spend.count(event) }
        let (usage, estimated) = spend.spent
        log.usage = usage
        log.costUSD = plan.targets.first { $0.qualifiedName == last.deployment }?.model.price?.cost(of: usage)
        log.usageEstimated = log.usageEstimated || estimated
    }

    /// The deployment of the last attempt that was made (not skipped), for the log of a failure.
    static func lastTried(_ attempts: [AttemptRecord], _ plan: RoutePlan) -> RouteTarget? {
        let tried = attempts.last { if case .skipped = $0.outcome { false } else { true } } ?? attempts.last
        guard let name = tried?.deployment ?? plan.targets.first?.qualifiedName else { return nil }
        return plan.targets.first { $0.qualifiedName == name }
    }

    /// Names the answering (or last tried) deployment in the log and adds the upstream time.
    static func note(_ target: RouteTarget?, _ start: ContinuousClock.Instant, _ log: inout RequestLogEntry) {
        if let target {
            log.provider = target.provider.id
            log.model = target.qualifiedName
        }
        let d = ContinuousClock.now - start
        log.upstreamMs = (log.upstreamMs ?? 0) + d.inMilliseconds
    }
}
