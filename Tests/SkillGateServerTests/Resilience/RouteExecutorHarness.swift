import Synchronization
import SkillGateCore
import SkillGateRouting
import SkillGateTestSupport
@testable import SkillGateServer

/// A `RouteExecutor` over scripted clients (one per provider id) and a manual clock.
struct RouteExecutorHarness {
    let clock = ManualClock()
    let clients: [String: ScriptedLLMClient]
    let executor: RouteExecutor
    let targets: [RouteTarget]

    init(_ scripts: [(String, [ScriptedLLMClient.Outcome])], configure: (inout GatewayConfig.Resilience) -> Void = { _ in }) {
        var settings = GatewayConfig.Resilience()
        settings.backoffInitialMs = 100
        settings.backoffMaxMs = 1000
        configure(&settings)
        var clients: [String: ScriptedLLMClient] = [:]
        for (provider, outcomes) in scripts { clients[provider] = ScriptedLLMClient(outcomes) }
        self.clients = clients
        targets = scripts.map { ResilienceFixtures.target($0.0) }
        let byProvider = clients
        var seed = SeededUnitRandom(seed: 3)
        let randoms = (0..<10_000).map { _ in seed.next() }
        let cursor = Mutex(0)
        executor = RouteExecutor(settings: settings, clock: clock, unitRandom: {
            cursor.locked { i in defer { i += 1 }; return randoms[i % randoms.count] }
        }) { target, _ throws(GatewayError) in
            guard let c = byProvider[target.provider.id] else { throw ResilienceFixtures.missingKey(target.provider.id) }
            return UpstreamClient(c)
        }
    }

    var plan: RoutePlan { ResilienceFixtures.plan(targets) }

    func calls(_ provider: String) -> Int { clients[provider]?.calls ?? 0 }

    /// Runs a non-streaming request; returns the answering provider (or the error) and the attempt log.
    func complete(_ request: ChatRequest = ResilienceFixtures.request, plan: RoutePlan? = nil) async -> (Result<String, GatewayError>, [String]) {
        var attempts: [AttemptRecord] = []
        do {
            let (_, target) = try await executor.complete(request, plan: plan ?? self.plan, caller: nil, attempts: &attempts)
            return (.success(target.provider.id), attempts.map(\.logText))
        } catch {
            return (.failure(GatewayError.from(error)), attempts.map(\.logText))
        }
    }
}
