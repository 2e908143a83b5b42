import Testing
import SkillGateCore
@testable import SkillGateRouting

@Suite struct RouteExplainerTests {
    private func explain(_ prompt: String, hint: RouteTier? = nil) -> String {
        let request = ChatRequest(model: "auto", messages: [Message(role: .user, text: prompt)])
        let d = TierScorer().decide(TaskFeatures(request: request), hint: hint, scenarioLean: .light)
        return RouteExplainer.render(d, scenario: "chat (default light)", targets: ["demo/demo-strong"], weights: .defaults)
    }

    /// The value of the features row named `name`.
    private func line(_ text: String, _ name: String) -> String? {
        for row in text.split(separator: "\n") where row.hasPrefix("  " + name + " ") {
            return String(row.dropFirst(2 + name.count).drop(while: { $0 == " " }))
        }
        return nil
    }

    @Test func printsFeaturesContributionsScoreThresholdTierAndTargets() {
        let text = explain("Prove step by step that the integral converges:\n```\nf(x)\n```")
        #expect(text.contains("scenario      chat (default light)"))
        #expect(text.contains("prompt tokens (est.)"))
        #expect(line(text, "reasoning markers") == "prove, step by step (strength 2.00)")
        #expect(line(text, "math markers") == "integral (strength 1.00)")
        #expect(line(text, "code blocks") == "1")
        #expect(line(text, "messages") == "1")
        #expect(text.contains("reasoning         +0.70  = +0.70 x 1.00"))
        #expect(text.contains("scenario_default  -0.15  = +0.15 x -1.00"))
        #expect(text.contains("score         1.25  (strong at >= 0.50)"))
        #expect(text.contains("tier          strong\n"))
        #expect(text.contains("targets       demo/demo-strong"))
        #expect(text.contains("x-skillgate-route: tier=strong; by=score; score=1.25; reasons=reasoning(+0.70),math(+0.50),code_blocks(+0.20)"))
    }

    @Test func saysWhenTheHeaderForcedTheTier() {
        let text = explain("hello", hint: .strong)
        #expect(text.contains("forced by the x-skillgate-tier header"))
        #expect(line(text, "reasoning markers") == "-")
    }
}
