import Foundation
import Synchronization
import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer

/// `agent.max_run_seconds`: a run past its time ends between steps, with what it did so far and a message saying which
/// setting stopped it.
@Suite struct AgentRunTimeTests {
    /// A clock that moves only when told: each skill run advances it, so the test needs no real waiting.
    final class StepClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.locked { $0 } }
        func advance(by duration: Duration) { instant.locked { $0 += duration } }
    }

    /// Each skill run takes 40 s of the run's clock and the limit is 100 s: the first two turns' skills run, the third
    /// model call starts at 80 s and asks for more; the run stops at 120 s before the fourth model call.
    @Test func aRunPastItsTimeStopsBeforeItsNextModelCall() async throws {
        let clock = StepClock()
        let ticking = TestSkill("tick", parameters: ["type": "object", "properties": ["n": ["type": "integer"]]]) { _ in
            clock.advance(by: .seconds(40))
            return SkillResult(text: "tock")
        }
        let model = ScriptedModel((1...9).map { .calls([("tick", #"{"n":\#($0)}"#)]) } + [.text("never")])
        var loop = AgentFixtures.loop([ticking], model: model, events: EventLog(), maxIterations: 10)
        loop.settings.maxRunSeconds = 100
        loop.now = { clock.now }
        let outcome = try await loop.run(AgentFixtures.request([ticking]))
        #expect(outcome.finishReason == "max_run_seconds")
        #expect(model.requests.count == 3 && outcome.iterations == 3, "\(model.requests.count) model calls")
        #expect(outcome.skillsRun == ["tick", "tick", "tick"])
        #expect(outcome.message?.contains("agent.max_run_seconds = 100") == true
                && outcome.message?.contains("the results of tick were not sent back") == true,
                "\(outcome.message ?? "")")
        #expect(outcome.response.finishReason == .length && outcome.response.text == outcome.message)
    }

    /// A model call that ends past the limit and asks for skills: they are not run.
    @Test func skillsAskedForPastTheTimeAreNotRun() async throws {
        let clock = StepClock()
        let ran = Mutex(0)
        let skill = TestSkill("work", parameters: ["type": "object", "properties": [:]]) { _ in
            ran.locked { $0 += 1 }
            return SkillResult(text: "done")
        }
        let model = ScriptedModel([.calls([("work", "{}")]), .text("never")])
        var loop = AgentFixtures.loop([skill], model: model, events: EventLog(), maxIterations: 5)
        loop.settings.maxRunSeconds = 30
        loop.now = { clock.now }
        loop.checkpoint = { clock.advance(by: .seconds(31)) }  // the first model call takes 31 s
        let outcome = try await loop.run(AgentFixtures.request([skill]))
        #expect(outcome.finishReason == "max_run_seconds" && outcome.iterations == 1)
        #expect(ran.locked { $0 } == 0 && outcome.skillsRun.isEmpty)
        #expect(outcome.message?.contains("the model still wanted to call work") == true, "\(outcome.message ?? "")")
    }

    /// Within its time a run goes on as before.
    @Test func aRunWithinItsTimeIsNotStopped() async throws {
        let clock = StepClock()
        let skill = TestSkill.fixed("work", "done")
        let model = ScriptedModel([.calls([("work", "{}")]), .calls([("work", "{}")]), .text("answer")])
        var loop = AgentFixtures.loop([skill], model: model, events: EventLog(), maxIterations: 5)
        loop.settings.maxRunSeconds = 30
        loop.now = { clock.now }
        loop.checkpoint = { clock.advance(by: .seconds(5)) }  // twice a turn: 25 s when the answer comes
        let outcome = try await loop.run(AgentFixtures.request([skill]))
        #expect(outcome.finishReason == "stop" && outcome.iterations == 3 && outcome.response.text == "answer")
    }
}
