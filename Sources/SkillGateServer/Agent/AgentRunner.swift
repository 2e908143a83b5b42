import SkillGateCore
import SkillGateRouting
import SkillGateSkills

/// Runs the agent loop for a prepared call: the visible server-side skills, one model call per
/// iteration through the execute stage (invisible calls go back to the model as error results;
/// an unusable answer re-runs that iteration on the escalation plan), events to `emit`.
struct AgentRunner: Sendable {
    let execute: ExecuteStage
    let settings: GatewayConfig.Agent
    let registry: SkillRegistry
    let metrics: GatewayMetrics
    /// Budgets, checked between a run's model calls with what the run spent so far (decision 0113).
    let limits: LimitsStage

    /// Runs the loop. `streamText` streams each model call and emits its text as `text.delta`
    /// (the agent surface); otherwise each call is whole (chat surfaces, which send only the final
    /// answer). `record` collects attempts, deployments, time and escalations for the log line.
    func run(_ call: PreparedCall, requestId: String, streamText: Bool, record: AgentRunRecord,
             emit: @escaping AgentEventSink) async throws -> AgentOutcome {
        var skills: [String: any Skill] = [:]
        for name in call.skills.serverSkills { skills[name] = registry.skill(named: name) }
        var policy = call.answers
        policy.invisibleCallsToModel = true
        // The token is re-checked before every step, and against the token cache about once a second while events flow
        // (streamed text): a revoked token ends the run with an error, and no further step runs.
        let recheck = call.client.recheck
        let metrics = self.metrics
        let checkedEmit: AgentEventSink = { event in
            if case .skillFinished(_, let skill, let ok, _, _, _) = event { metrics.skillRan(skill, ok: ok) }
            try recheck.checkIfDue()
            try await emit(event)
        }
        let spending = limits.runSpending(for: call.client, scenario: call.scenario.name)
        defer { record.countedInLimits(spending.counted) }
        let loop = AgentLoop(settings: settings, skills: skills, context: SkillContext(tokenName: call.client.name, requestId: requestId),
                             model: modelCall(call, policy: policy, streamText: streamText, record: record), emit: checkedEmit,
                             checkpoint: { try await recheck.check() },
                             // What failed attempts and escalated answers spent counts too (decision 0120).
                             budgetUsedUp: { spent in await spending.usedUp(afterSpending: spent + record.unusableCostUSD, tokens: record.spentTokens) },
                             skillRan: { record.skillRan($0) })
        return try await loop.run(call.request)
    }

    /// One model call per iteration; an unusable answer is re-run on the escalation plan (that
    /// iteration only). Each call's attempts, deployment, usage and outcome go to `record` (the ledger's call rows), with
    /// what its failed attempts and an escalated unusable answer used (decision 0120).
    private func modelCall(_ call: PreparedCall, policy: AnswerPolicy, streamText: Bool, record: AgentRunRecord) -> AgentModelCall {
        let execute = self.execute
        @Sendable func callOnce(_ request: ChatRequest, _ iteration: Int, _ emit: AgentEventSink, _ scratch: inout RequestLogEntry) async throws -> AgentTurn {
            var execution = try await execute.once(request, plan: call.plan, policy: policy, stream: streamText, caller: call.client.tokenId, &scratch)
            var plan = call.plan
            if case .unusable(let u, let light) = execution, let escalation = call.escalation, !Task.isCancelled {
                record.escalated(u.reason)
                // The unusable answer was paid for: counted beside the escalated one, as on the chat surfaces, under the
                // model that gave it (decision 0123).
                scratch.addUnusable(scratch.usage, costUSD: scratch.costUSD, by: light.qualifiedName, provider: light.provider.id)
                scratch.usage = nil
                scratch.costUSD = nil
                plan = escalation
                execution = try await execute.once(request, plan: escalation, policy: policy.escalated, stream: streamText, caller: call.client.tokenId, &scratch)
            }
            switch execution {
            case .answered(var response, let target):
                try await emit(.routeSelected(provider: target.provider.id, model: target.qualifiedName, route: plan.route, iteration: iteration))
                // What the execute stage charged: the reported usage, or its estimate when the provider reported none (as a
                // streamed call's, below).
                response.usage = scratch.usage ?? response.usage
                return AgentTurn(response: response, costUSD: scratch.costUSD)
            case .streaming(var upstream):
                defer { upstream.finish() }
                let target = upstream.target
                try await emit(.routeSelected(provider: target.provider.id, model: target.qualifiedName, route: plan.route, iteration: iteration))
                var answer = ChatResponseAccumulator()
                var spend = StreamSpend(inputOf: request)
                do {
                    while let event = try await upstream.nextOfAnswer() {
                        answer.apply(event)
                        spend.count(event)
                        // Refusal text is the answer's text here too; `run.completed` says `refusal` (decision 0114).
                        switch event {
                        case .textDelta(let t) where !t.isEmpty, .refusalDelta(let t) where !t.isEmpty: try await emit(.textDelta(t))
                        default: break
                        }
                    }
                    // A complete answer whose stream stays open is not waited on (decision 0154).
                    for event in await upstream.letGo() {
                        answer.apply(event)
                        spend.count(event)
                    }
                } catch {
                    // Ended before its usage came (the client left, the upstream failed): the call is charged what it
                    // used, estimated, not nothing (decision 0104); a failed answer carries what it used (decision 0123).
                    spend.ended(by: error)
                    let (usage, estimated) = spend.spent
                    scratch.usage = usage
                    scratch.usageEstimated = scratch.usageEstimated || estimated
                    scratch.costUSD = target.model.price?.cost(of: usage)
                    throw error
                }
                var response = answer.response
                let (usage, estimated) = spend.spent
                response.usage = usage
                scratch.usageEstimated = scratch.usageEstimated || estimated
                return AgentTurn(response: response, costUSD: target.model.price?.cost(of: usage))
            case .unusable(let u, let target):
                throw GatewayError.upstreamProtocol("the answer of \(target.qualifiedName) was unusable (\(u.detail))", provider: target.provider.id)
            }
        }
        return { request, iteration, emit in
            var scratch = RequestLogEntry(requestId: "", method: "", path: "")
            defer { record.absorb(scratch) }
            do {
                let turn = try await callOnce(request, iteration, emit, &scratch)
                scratch.usage = turn.response.usage
                scratch.costUSD = turn.costUSD
                return turn
            } catch {
                scratch.errorKind = GatewayError.from(error).kind
                throw error
            }
        }
    }
}
