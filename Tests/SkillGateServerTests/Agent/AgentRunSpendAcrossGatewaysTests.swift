import Foundation
import Testing
import Synchronization
import SkillGateCore
import SkillGateHTTP
import SkillGateSkills
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// An agent run's spend reaches the usage ledger as each model call is paid for (decision 0148): two gateways on one
/// state directory, a token with a day's budget, and a run on the first whose skill holds it between its two model calls
/// (each $0.008: 8 tokens at $1,000 per million). While it is held, the second gateway counts the first call against
/// the budget (before, it saw the run's spend only when the run ended, so N gateways could each spend a budget on runs
/// under way), the first counts it once though its own ledger holds it too, and the ledger's running totals hold it
/// without the run's request. Once the run ends, both count the run's whole cost once, and the ledger's rows say the same.
@Suite(.serialized) struct AgentRunSpendAcrossGatewaysTests {
    /// A skill that holds its run until released.
    final class Gate: Sendable {
        private let state = Mutex<(entered: Bool, released: Bool)>((false, false))
        var entered: Bool { state.locked { $0.entered } }
        func release() { state.locked { $0.released = true } }

        var skill: TestSkill {
            TestSkill("gate") { [self] _ in
                state.locked { $0.entered = true }
                while !state.locked({ $0.released }) { try await Task.sleep(for: .milliseconds(10)) }
                return SkillResult(text: "opened")
            }
        }
    }

    static let callCost: Int64 = 8_000

    /// The token's day budget as `GET /v1/limits` on `port` tells it: microdollars used.
    static func dayBudgetUsed(_ h: AgentGatewayHarness, port: Int) async throws -> Int64? {
        let used = try await Self.used(h, port: port, "budget_usd_per_day")?.doubleValue
        return used.map { Int64(($0 * 1e6).rounded()) }
    }

    /// What `GET /v1/limits` on `port` says the token used of `limit`.
    static func used(_ h: AgentGatewayHarness, port: Int, _ limit: String) async throws -> JSONValue? {
        let r = try await h.client.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(port)/v1/limits",
                                                    headers: ["authorization": "Bearer \(h.token)"]))
        let rows = try JSONValue.parse(r.body)["data"]?.arrayValue ?? []
        return rows.first { $0["limit"]?.stringValue == limit }?["used"]
    }

    @Test func aRunsPaidCallsCountOnAnotherGatewayWhileItIsHeld() async throws {
        try await Self.check(state: "")
    }

    /// The same on one PostgreSQL database (its ledger written every 100 ms).
    @Test(.enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
    func onePostgreSQLDatabase() async throws {
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { Thread.detachNewThread { db.drop() } }
        try await Self.check(state: #","state":{"postgres_url":"\#(db.url)"},"ledger":{"flush_interval_ms":100}"#)
    }

    /// Runs on two gateways sharing a state, each model calling a skill forever at $0.008 a call and a second a call, on a
    /// day's budget of $0.04 (five calls): each run reads the ledger again between its calls when its counts are a second
    /// old, so together they stop near the budget (decision 0150). Before, a run saw the other gateway's spend only when
    /// some new request started a read: each stopped at its own $0.04, ten calls between them.
    @Test func runsOnTwoGatewaysStopTogetherNearTheBudget() async throws {
        let skill = TestSkill.fixed("clock", "07:55 UTC")
        let h = try AgentGatewayHarness(skills: [skill], upstream: AgentUpstream(tool: "clock", callsForever: .seconds(1)), lightFallback: true,
                                        maxIterations: 20, extraConfig: #","token_limits":{"budget_usd_per_day":0.04}"#)
        let other = try GatewayServer(config: GatewayConfig.load(path: h.directory + "/skillgate.json"),
                                      logFD: open("/dev/null", O_WRONLY), serverSkills: try SkillRegistry([skill]))
        try other.start()
        let (client, token) = (h.client, h.token)
        let runs = [h.gateway.boundPort, other.boundPort].map { port in
            Task { try await AgentGatewayHarness.post(client, port: port, token: token, "/v1/chat/completions", AgentGatewayTests.openAI(stream: false)) }
        }
        var statuses: [Int] = []
        for run in runs { statuses.append(try await run.value.status) }
        let calls = h.upstream.requests.count
        await other.shutdown()
        await h.stop()
        #expect(statuses == [200, 200])
        #expect(calls <= 7, "two runs on two gateways made \(calls) model calls on a budget of five")
    }

    /// A budget lowered while a run goes on (`skillgate tokens update`, here through the token service) stops the run at
    /// its next check (decision 0150): before, the run was judged on the limits its token had when it started, and ran
    /// to `max_iterations`.
    @Test func aBudgetLoweredWhileARunGoesOnStopsIt() async throws {
        let skill = TestSkill.fixed("clock", "07:55 UTC")
        let h = try AgentGatewayHarness(skills: [skill], upstream: AgentUpstream(tool: "clock", callsForever: .milliseconds(200)), lightFallback: true,
                                        maxIterations: 20, extraConfig: #","token_limits":{"budget_usd_per_day":100}"#)
        let (client, port, token) = (h.client, h.gateway.boundPort, h.token)
        let run = Task { try await AgentGatewayHarness.post(client, port: port, token: token, "/v1/chat/completions", AgentGatewayTests.openAI(stream: false)) }
        let by = ContinuousClock.now + .seconds(30)
        while h.upstream.requests.count < 2 && ContinuousClock.now < by { try await Task.sleep(for: .milliseconds(10)) }
        _ = try h.gateway.services.tokens.updateLimits(name: "agent-test", TokenLimits(budgetUSDPerDay: 0.001))
        let answer = try await run.value
        let calls = h.upstream.requests.count
        await h.stop()
        #expect(answer.status == 200 && answer.body.contains("budget"), "\(answer.body)")
        #expect(calls <= 4, "the run went on for \(calls) model calls after its budget was lowered")
    }

    /// `state`: more members of the config (with their leading commas) that put both gateways' state elsewhere.
    static func check(state: String) async throws {
        let gate = Gate()
        let skill = gate.skill
        let h = try AgentGatewayHarness(skills: [skill], upstream: AgentUpstream(tool: "gate"), lightFallback: true,
                                        extraConfig: #","token_limits":{"budget_usd_per_day":1,"tokens_per_minute":100000}"# + state)
        let other = try GatewayServer(config: GatewayConfig.load(path: h.directory + "/skillgate.json"),
                                      logFD: open("/dev/null", O_WRONLY), serverSkills: try SkillRegistry([skill]))
        try other.start()
        let (client, port, token) = (h.client, h.gateway.boundPort, h.token)
        let run = Task { try await AgentGatewayHarness.post(client, port: port, token: token, "/v1/chat/completions", AgentGatewayTests.openAI(stream: false)) }
        let enteredBy = ContinuousClock.now + .seconds(30)
        while !gate.entered && ContinuousClock.now < enteredBy { try await Task.sleep(for: .milliseconds(10)) }
        let store = h.gateway.services.tokens.store
        let tokenId = try #require(try h.gateway.services.tokens.list().first { $0.name == "agent-test" }?.id)
        let dayStart = LimitWindows.dayStart(LimitWindows.day(Date()))

        // The other gateway reads the ledger again at least every two seconds of a token's idleness.
        var onOther: Int64?
        let seenBy = ContinuousClock.now + .seconds(10)
        repeat {
            onOther = try await Self.dayBudgetUsed(h, port: other.boundPort)
            if onOther != Self.callCost { try await Task.sleep(for: .milliseconds(200)) }
        } while onOther != Self.callCost && ContinuousClock.now < seenBy
        await h.gateway.flushLedger()
        let whileHeld = try store.usageSummary(tokenId: tokenId, since: dayStart)
        let callRowsWhileHeld = try store.usageReport(since: Date(timeIntervalSince1970: 0), by: .model)
        let spool = h.directory + "/state/ledger-spool"
        let keptWhileHeld = (try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []
        // Past the two seconds after which the run's own gateway reads the ledger (which now holds the call) again.
        try await Task.sleep(for: .milliseconds(2_100))
        let onOwn = try await Self.dayBudgetUsed(h, port: h.gateway.boundPort)

        gate.release()
        let answer = try await run.value
        await h.gateway.flushLedger()
        let afterwards = try store.usageSummary(tokenId: tokenId, since: dayStart)
        let byToken = try store.usageReport(since: Date(timeIntervalSince1970: 0), by: .token)
        let keptAfterwards = (try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []
        try await Task.sleep(for: .milliseconds(2_100))
        let ownAfterwards = try await Self.dayBudgetUsed(h, port: h.gateway.boundPort)
        let ownTokens = try await Self.used(h, port: h.gateway.boundPort, "tokens_per_minute")?.intValue
        let otherAfterwards = try await Self.dayBudgetUsed(h, port: other.boundPort)
        await other.shutdown()
        await h.stop()

        #expect(answer.status == 200, "\(answer.body)")
        // The row the run would have if its gateway were killed is kept while it goes on, and goes when its own row is
        // queued (decision 0151).
        #expect(keptWhileHeld.count == 1 && keptWhileHeld.first?.hasSuffix(".writing-\(getpid())") == true, "\(keptWhileHeld)")
        #expect(keptAfterwards.isEmpty, "\(keptAfterwards)")
        #expect(onOther == Self.callCost, "the other gateway did not count the run's paid call while the run went on")
        #expect(whileHeld.costMicrodollars == Self.callCost && whileHeld.requests == 0,
                "the ledger's totals hold the paid call, and no request until the run's row: \(whileHeld)")
        #expect(callRowsWhileHeld.first { $0.key == "up/light-native" }?.costMicrodollars == Self.callCost, "\(callRowsWhileHeld)")
        #expect(onOwn == Self.callCost, "the run's own gateway counted its call other than once")
        #expect(afterwards.costMicrodollars == 2 * Self.callCost && afterwards.requests == 1, "\(afterwards)")
        #expect(byToken.first?.costMicrodollars == 2 * Self.callCost && byToken.first?.requests == 1, "\(byToken)")
        // At most the run's two calls (fewer if a minute began meanwhile): its paid call was counted once, not again at
        // its release after the ledger read back held it (decision 0150).
        #expect((ownTokens ?? 0) <= 16, "the run's tokens counted \(ownTokens ?? 0) for 16 used")
        #expect(ownAfterwards == 2 * Self.callCost && otherAfterwards == 2 * Self.callCost,
                "the run's whole cost counted once: \(String(describing: ownAfterwards)), \(String(describing: otherAfterwards))")
    }
}
