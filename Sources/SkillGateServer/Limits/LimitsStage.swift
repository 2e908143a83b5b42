import SkillGateCore
import SkillGateState

/// The limits step of the prepare stage: a request is admitted against its token's limits (the token's own, else
/// the config's `token_limits`) and its scenario's (`scenarios.<name>.limits`), before any upstream call, or
/// refused with a 429 naming the limit and when it resets. The ticket is released by the account stage.
struct LimitsStage: Sendable {
    let counters: LimitCounters
    let tokenDefaults: TokenLimits
    let scenarios: [String: GatewayConfig.ScenarioConfig]
    let metrics: GatewayMetrics

    /// The subjects of a request and their limits (those without any are left out).
    func checks(for client: AuthenticatedClient, scenario: String?) -> [(LimitSubject, TokenLimits)] {
        var out: [(LimitSubject, TokenLimits)] = []
        let token = client.limits.over(tokenDefaults)
        if !token.isEmpty { out.append((LimitSubject(kind: .token, id: client.tokenId, name: client.name), token)) }
        if let scenario, let limits = scenarios[scenario]?.limits, !limits.isEmpty {
            out.append((LimitSubject(kind: .scenario, id: scenario, name: scenario), limits))
        }
        return out
    }

    /// Admits the request or throws its 429 (`GatewayError`, counted in `skillgate_limit_rejections_total`). The first
    /// request of a token or scenario in this process awaits its counts from the ledger (off the event loop).
    func admit(_ client: AuthenticatedClient, scenario: String, stream: Bool) async throws(GatewayError) -> LimitTicket {
        do {
            return try await counters.admit(checks(for: client, scenario: scenario), stream: stream)
        } catch {
            throw refused(error)
        }
    }

    /// `admit` without awaiting, for the request path: `.unread` when a subject's counts must first be read from the
    /// ledger (then call `admit`).
    func admitWithoutReading(_ client: AuthenticatedClient, scenario: String, stream: Bool) throws(GatewayError) -> LimitCounters.Admission {
        do {
            return try counters.admitWithoutReading(checks(for: client, scenario: scenario), stream: stream)
        } catch {
            throw refused(error)
        }
    }

    /// For an agent run of `client` in `scenario`: its spend as it goes, counted against its limits at once (decisions
    /// 0113, 0146, 0148). Its request's ticket is released with the rest of the cost and tokens (`RunSpending.counted`).
    /// The token's limits are its current ones at each check (`TokenRecheck.currentLimits`, decision 0150).
    func runSpending(for client: AuthenticatedClient, scenario: String) -> RunSpending {
        RunSpending(counters: counters) { [self] in
            var now = client
            now.limits = client.recheck.currentLimits
            return checks(for: now, scenario: scenario)
        }
    }

    /// The limit `client` in `scenario` is over now, if any, counting nothing (`LimitCounters.currentRejection`).
    func currentlyOver(_ client: AuthenticatedClient, scenario: String) async -> LimitRejection? {
        await counters.currentRejection(checks(for: client, scenario: scenario), stream: false)
    }

    /// A refusal counted in `skillgate_limit_rejections_total`, as the request's 429.
    private func refused(_ rejection: LimitRejection) -> GatewayError {
        metrics.limitRejected(rejection.limit.rawValue, scope: rejection.subject.kind.rawValue)
        return rejection.gatewayError
    }

    /// The caller's limits and what is left (`GET /v1/limits`): the token's, and those of each scenario it may use.
    func status(for client: AuthenticatedClient) async -> JSONValue {
        var rows: [JSONValue] = []
        for (subject, limits) in checks(for: client, scenario: nil) { rows += await counters.status(subject, limits).map { $0.json() } }
        for name in scenarios.keys.sorted() where client.scope.scenarios.isEmpty || client.scope.scenarios.contains(name) {
            guard let limits = scenarios[name]?.limits, !limits.isEmpty else { continue }
            rows += await counters.status(LimitSubject(kind: .scenario, id: name, name: name), limits).map { $0.json() }
        }
        return ["object": "limits", "token": .string(client.name), "data": .array(rows)]
    }
}
