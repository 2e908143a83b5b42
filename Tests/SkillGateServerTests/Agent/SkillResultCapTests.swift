import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateServer

/// A skill's structured result (an MCP tool's `structuredContent`) is bounded by `agent.max_result_bytes` like its
/// text: dropped whole, with a note in the text, when its JSON is longer (decision 0118).
@Suite struct SkillResultCapTests {
    static func bulky(_ bytes: Int) -> JSONValue { ["rows": .string(String(repeating: "x", count: bytes))] }

    @Test func aPayloadOverTheBoundIsDroppedAndTheTextSaysSo() {
        let capped = SkillExecution.capped(SkillResult(text: "42 rows", payload: Self.bulky(100_000)), maxBytes: 1024)
        #expect(capped.payload?.serializedBytes().count == nil)
        #expect(capped.text.hasPrefix("42 rows\n[structured content dropped: its JSON was 100011 bytes, over the 1024-byte agent.max_result_bytes"), "\(capped.text)")
        #expect(capped.text.utf8.count <= 1024)
    }

    @Test func aPayloadWithinTheBoundIsKeptWhole() {
        let payload = Self.bulky(900)
        let capped = SkillExecution.capped(SkillResult(text: "ok", payload: payload, isError: true), maxBytes: 1024)
        #expect(capped == SkillResult(text: "ok", payload: payload, isError: true))
    }

    /// The text and the note together stay within the smallest bound the config allows, the text cut first.
    @Test(arguments: [256, 1024, 16_384])
    func aLongTextAndADroppedPayloadStayWithinTheBound(_ maxBytes: Int) {
        let capped = SkillExecution.capped(SkillResult(text: String(repeating: "é", count: 50_000), payload: Self.bulky(4_000_000)), maxBytes: maxBytes)
        #expect(capped.payload?.serializedBytes().count == nil)
        #expect(capped.text.utf8.count <= maxBytes, "\(capped.text.utf8.count)")
        #expect(capped.text.contains("[truncated: the result was 100000 bytes") && capped.text.hasSuffix("raise the bound]"))
        #expect(!capped.text.contains("\u{FFFD}"))
    }

    /// In the agent loop: the client's `skill.finished` has no payload, and the model reads the note.
    @Test func theAgentLoopDropsAPayloadOverTheBound() async throws {
        let big = TestSkill("big") { _ in SkillResult(text: "done", payload: Self.bulky(200_000)) }
        let small = TestSkill("small") { _ in SkillResult(text: "fine", payload: ["n": 1]) }
        let model = ScriptedModel([.calls([("big", "{}"), ("small", "{}")]), .text("ok")])
        let events = EventLog()
        _ = try await AgentFixtures.loop([big, small], model: model, events: events, maxResultBytes: 4096).run(AgentFixtures.request([big, small]))
        let payloads = events.all.compactMap { event -> (skill: String, payload: JSONValue?)? in
            if case .skillFinished(_, let skill, _, _, _, let payload) = event { (skill, payload) } else { nil }
        }
        #expect(payloads.count == 2)
        #expect(payloads.first { $0.skill == "big" }.map { $0.payload?.serializedBytes().count } == .some(nil))
        #expect(payloads.first { $0.skill == "small" }?.payload == ["n": 1])
        let results = AgentFixtures.results(model, request: 2)
        #expect(results.first?.text.contains("[structured content dropped: its JSON was 200011 bytes") == true, "\(results.first?.text ?? "")")
        #expect(results.last?.text == "fine")
    }
}
