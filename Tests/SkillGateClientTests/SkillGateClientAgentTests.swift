import Foundation
import SkillGateClient
import Synchronization
import Testing

/// `agent(_:)` against a real gateway: events of a run that uses a built-in skill, and cancellation.
@Suite(.serialized) struct SkillGateClientAgentTests {
    @Test func eventsOfARunThatUsesABuiltInSkillArriveInOrder() async throws {
        let gateway = try ClientGatewayHarness()
        let client = SkillGateClient(baseURL: gateway.baseURL, token: gateway.token)
        var events: [AgentEvent] = []
        for try await event in client.agent(AgentRequest(asking: "What is 17 * 23?", scenario: "assistant")) {
            events.append(event)
        }
        await gateway.stop()

        let names = events.map(\.name.rawValue).reduce(into: [String]()) { out, name in
            if out.last != name || name != "text.delta" { out.append(name) }
        }
        #expect(names == ["run.started", "route.selected", "skill.started", "skill.finished", "route.selected", "text.delta", "run.completed"])
        guard case .runStarted(let started) = events.first,
              case .skillStarted(let skill) = events[2], case .skillFinished(let finished) = events[3],
              case .runCompleted(let completed) = events.last else {
            Issue.record("unexpected events: \(events)")
            return
        }
        #expect(started.runId.hasPrefix("run_"))
        #expect(started.scenario == "assistant")
        #expect(skill.skill == "calculator")
        #expect(skill.arguments == ["expression": "17 * 23"])
        #expect(skill.iteration == 1)
        #expect(finished.callId == skill.callId)
        #expect(finished.ok)
        #expect(finished.summary.contains("391"))
        let text = events.compactMap { event -> String? in
            if case .textDelta(let delta) = event { return delta.text } else { return nil }
        }.joined()
        #expect(text.contains("391"))
        #expect(completed.finishReason == "stop")
        #expect(completed.iterations == 2)
    }

    /// Cancelling the consuming task closes the connection; the gateway cancels the run's skill.
    /// The skill records the instant the server cancelled it, so the measurement is the server's
    /// own, not a poll of it.
    @Test func cancellingTheConsumingTaskStopsTheRunOnTheServerWithin100ms() async throws {
        let skill = WatchedSkill()
        let gateway = try ClientGatewayHarness(skills: [skill])
        let client = SkillGateClient(baseURL: gateway.baseURL, token: gateway.token)
        let seen = Mutex<[String]>([])
        let consumer = Task {
            for try await event in client.agent(AgentRequest(asking: "What time is it?", scenario: "assistant")) {
                seen.locked { $0.append(event.name.rawValue) }
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while !(skill.started && seen.locked({ $0.contains("skill.started") })), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(skill.started, "the demo model did not call slow_clock")
        let cancelledAt = ContinuousClock.now
        consumer.cancel()
        _ = try? await consumer.value
        while skill.cancelledAt == nil, ContinuousClock.now < cancelledAt + .seconds(5) {
            try await Task.sleep(for: .milliseconds(5))
        }
        let noticedAt = try #require(skill.cancelledAt, "the gateway never cancelled the skill")
        #expect(noticedAt >= cancelledAt)
        #expect(noticedAt - cancelledAt <= .milliseconds(100), "the server stopped the run \(noticedAt - cancelledAt) after the cancel")
        #expect(seen.locked { $0 } == ["run.started", "route.selected", "skill.started"])
        // The run's log line says the client went away (499).
        while await !gateway.requestLog().contains(where: { $0.path == "/v1/agent" }), ContinuousClock.now < cancelledAt + .seconds(5) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let logged = await gateway.requestLog().first { $0.path == "/v1/agent" }
        await gateway.stop()
        #expect(logged?.status == 499)
    }
}
