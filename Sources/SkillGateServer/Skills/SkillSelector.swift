import SkillGateCore
import SkillGateSkills

/// What the selector said about one cut.
public struct SkillSelection: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// The model answered; the names it chose among the offered candidates, most useful first
        /// (possibly none: the ranking fills the slots).
        case chose([String])
        /// No usable answer within the timeout; `reason` is `selector_timeout`, `selector_http_<status>`,
        /// `selector_failed`, `selector_unparsable` or `cancelled`. The ranking's cut stands.
        case failed(reason: String)
    }

    public var outcome: Outcome
    /// What went wrong and what to do (never a key); `nil` when the model answered.
    public var message: String?
    /// The model that answered (`provider/model`).
    public var model: String?
    /// Tokens the call spent, when the model answered.
    public var usage: Usage?
    /// What those tokens cost at the catalog's price for the model (`nil` without a price or an answer).
    /// Part of what the request spent: budgets, the usage ledger and `skillgate_cost_usd_total` count it.
    public var costUSD: Double?
    /// Time from asking to the answer (or to giving up); set by `SkillSelector.choose`.
    public var milliseconds: Double = 0

    /// The chosen names; empty after a failure.
    public var chosen: [String] {
        if case .chose(let names) = outcome { return names }
        return []
    }

    /// `chose` or `failed(<reason>)`, for `x-skillgate-skills`.
    public var label: String {
        switch outcome {
        case .chose: return "chose"
        case .failed(let reason): return "failed(\(reason))"
        }
    }

    /// The failure reason, `nil` when the model answered.
    public var failureReason: String? {
        if case .failed(let reason) = outcome { return reason }
        return nil
    }
}

/// `skill_ranking.selector`: asks a chat model (the light tier by default) which of the ranking's top
/// candidates fit the conversation, in one short call with its own timeout (decision 0043). Its
/// targets are tried in order until one answers; nothing it does can fail the request.
struct SkillSelector: Sendable {
    /// One call to one target; the closure owns the client and its key.
    typealias Call = @Sendable (RouteTarget, ChatRequest) async throws -> ChatResponse

    let settings: GatewayConfig.Selector
    /// What `settings.model` resolves to, in order of preference; never empty.
    let targets: [RouteTarget]
    let call: Call

    init(settings: GatewayConfig.Selector, targets: [RouteTarget], call: @escaping Call) {
        precondition(!targets.isEmpty, "a selector needs a model")
        self.settings = settings
        self.targets = targets
        self.call = call
    }

    /// Asks which of `candidates` (best-ranked first) to show for `messages`, at most `limit`.
    func choose(from candidates: [SkillCandidate], messages: [Message], limit: Int) async -> SkillSelection {
        let request = SkillSelectorPrompt.request(messages: messages, candidates: candidates, limit: limit)
        let offered = candidates.map(\.name)
        let clock = ContinuousClock()
        let started = clock.now
        let timeout = Duration.milliseconds(settings.timeoutMs)
        let answered = await Deadline.run(within: timeout) { [targets, call] in
            await Self.ask(targets: targets, request: request, offered: offered, call: call)
        }
        var selection = answered ?? (Task.isCancelled
            ? SkillSelection(outcome: .failed(reason: "cancelled"), message: "the request was cancelled")
            : SkillSelection(outcome: .failed(reason: "selector_timeout"),
                             message: "\(settings.model) did not choose within \(settings.timeoutMs) ms (skill_ranking.selector.timeout_ms); the ranking's cut was used. Raise timeout_ms or name a faster model"))
        selection.milliseconds = (clock.now - started).logMilliseconds
        return selection
    }

    /// Tries each target until one answers; the last failure otherwise.
    private static func ask(targets: [RouteTarget], request: ChatRequest, offered: [String], call: Call) async -> SkillSelection {
        var failure = SkillSelection(outcome: .failed(reason: "selector_failed"))
        for target in targets {
            if Task.isCancelled { break }
            var attempt = request
            attempt.model = target.model.id
            let response: ChatResponse
            do {
                response = try await call(target, attempt)
            } catch let error as GatewayError {
                failure = SkillSelection(outcome: .failed(reason: error.upstreamStatus.map { "selector_http_\($0)" } ?? "selector_failed"),
                                         message: "selector model \(target.qualifiedName): \(error.message)", model: target.qualifiedName)
                continue
            } catch {
                failure = SkillSelection(outcome: .failed(reason: "selector_failed"),
                                         message: "selector model \(target.qualifiedName): \(error)", model: target.qualifiedName)
                continue
            }
            guard let names = SkillSelectorPrompt.chosenNames(in: response.text, offered: offered) else {
                return SkillSelection(outcome: .failed(reason: "selector_unparsable"),
                                      message: "selector model \(target.qualifiedName) did not answer with {\"tools\": [...]}; the ranking's cut was used. Name a model that follows JSON instructions",
                                      model: target.qualifiedName, usage: response.usage, costUSD: target.model.price?.cost(of: response.usage))
            }
            return SkillSelection(outcome: .chose(names), model: target.qualifiedName, usage: response.usage,
                                  costUSD: target.model.price?.cost(of: response.usage))
        }
        return failure
    }
}
