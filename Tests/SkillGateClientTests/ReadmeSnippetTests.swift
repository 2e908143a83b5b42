import Foundation
import Testing
import Observation
import SkillGateClient

@MainActor @Observable final class AgentModel {
    struct SkillCard: Identifiable, Equatable { let id: String; let name: String; var ok: Bool? }   // ok: nil while running

    var answer = ""
    var skills: [SkillCard] = []
    @ObservationIgnored private var run: Task<Void, Never>?
    private let client: SkillGateClient

    init(client: SkillGateClient) { self.client = client }

    func ask(_ question: String) {
        stop()
        answer = ""
        skills = []
        run = Task {
            do {
                for try await event in client.agent(AgentRequest(asking: question, scenario: "assistant")) {
                    switch event {
                    case .textDelta(let delta): answer += delta.text
                    case .skillStarted(let skill): skills.append(SkillCard(id: skill.callId, name: skill.skill))
                    case .skillFinished(let skill):
                        if let i = skills.firstIndex(where: { $0.id == skill.callId }) { skills[i].ok = skill.ok }
                    case .runFailed(let failed): answer += "\n⚠️ " + failed.error.message
                    default: break
                    }
                }
            } catch {
                answer += "\n⚠️ " + error.localizedDescription   // what failed and what to do
            }
        }
    }

    func stop() { run?.cancel() }   // cancels the HTTP request; the gateway stops the run
}

/// The README's SwiftUI view model ("From a SwiftUI app"), copied verbatim above, against a real gateway.
@Suite(.serialized) struct ReadmeSnippetTests {
    @MainActor @Test func theViewModelShowsTheSkillCardAndTheAnswer() async throws {
        let gateway = try ClientGatewayHarness()
        let model = AgentModel(client: SkillGateClient(baseURL: gateway.baseURL, token: gateway.token))
        model.ask("What is 17 * 23?")
        // Only bounds a failing run: the loop ends as soon as the answer is there.
        let deadline = ContinuousClock.now + .seconds(60)
        while !(model.answer.contains("391") && model.skills.first?.ok != nil), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        model.stop()
        await gateway.stop()
        #expect(model.skills.map(\.name) == ["calculator"])
        #expect(model.skills.first?.ok == true)
        #expect(model.answer.contains("391"))
        #expect(!model.answer.contains("⚠️"))
    }
}
