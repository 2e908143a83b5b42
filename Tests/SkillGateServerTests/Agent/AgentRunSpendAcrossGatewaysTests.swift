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
        var entered: Bool { state.withLock { $0.entered } }
        func release() { state.withLock { $0.released = true } }

        var skill: TestSkill {
            TestSkill("gate") { [self] _ in
                state.withLock { $0.entered = true }
                while !state.withLock({ $0.released }) { try await Task.sleep(for: .milliseconds(10)) }
                return SkillResult(text: "opened")
            }
        }
    }

    static let callCost: Int64 = 8_000

    /// The token's day budget as `GET /v1/limits` on `port` tells it: microdollars used.
    static func dayBudgetUsed(_ h: AgentGatewayHarness, port: Int) async throws -> Int64? {
        let r = try await h.client.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(port)/v1/limits",
                                                    headers: ["authorization": "Bearer \(h.token)"]))
        let rows = try JSONValue.parse(r.body)["data"]?.arrayValue ?? []
        let used = rows.first { $0["limit"]?.stringValue == "budget_usd_per_day" }?["used"]?.doubleValue
        return used.map { Int64(($0 * 1e6).rounded()) }
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

    /// `state`: more members of the config (with their leading commas) that put both gateways' state elsewhere.
    static func check(state: String) async throws {
        let gate = Gate()
        let skill = gate.skill
        let h = try AgentGatewayHarness(skills: [skill], upstream: AgentUpstream(tool: "gate"), lightFallback: true,
                                        extraConfig: #","token_limits":{"budget_usd_per_day":1}"# + state)
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
        h.gateway.flushLedger()
        let whileHeld = try store.usageSummary(tokenId: tokenId, since: dayStart)
        let callRowsWhileHeld = try store.usageReport(since: Date(timeIntervalSince1970: 0), by: .model)
        // Past the two seconds after which the run's own gateway reads the ledger (which now holds the call) again.
        try await Task.sleep(for: .milliseconds(2_100))
        let onOwn = try await Self.dayBudgetUsed(h, port: h.gateway.boundPort)

        gate.release()
        let answer = try await run.value
        h.gateway.flushLedger()
        let afterwards = try store.usageSummary(tokenId: tokenId, since: dayStart)
        let byToken = try store.usageReport(since: Date(timeIntervalSince1970: 0), by: .token)
        try await Task.sleep(for: .milliseconds(2_100))
        let ownAfterwards = try await Self.dayBudgetUsed(h, port: h.gateway.boundPort)
        let otherAfterwards = try await Self.dayBudgetUsed(h, port: other.boundPort)
        await other.shutdown()
        await h.stop()

        #expect(answer.status == 200, "\(answer.body)")
        #expect(onOther == Self.callCost, "the other gateway did not count the run's paid call while the run went on")
        #expect(whileHeld.costMicrodollars == Self.callCost && whileHeld.requests == 0,
                "the ledger's totals hold the paid call, and no request until the run's row: \(whileHeld)")
        #expect(callRowsWhileHeld.first { $0.key == "up/light-native" }?.costMicrodollars == Self.callCost, "\(callRowsWhileHeld)")
        #expect(onOwn == Self.callCost, "the run's own gateway counted its call other than once")
        #expect(afterwards.costMicrodollars == 2 * Self.callCost && afterwards.requests == 1, "\(afterwards)")
        #expect(byToken.first?.costMicrodollars == 2 * Self.callCost && byToken.first?.requests == 1, "\(byToken)")
        #expect(ownAfterwards == 2 * Self.callCost && otherAfterwards == 2 * Self.callCost,
                "the run's whole cost counted once: \(String(describing: ownAfterwards)), \(String(describing: otherAfterwards))")
    }
}
