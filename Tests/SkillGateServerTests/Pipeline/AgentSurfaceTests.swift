import Testing
import SkillGateCore
@testable import SkillGateServer

@Suite struct AgentSurfaceTests {
    @Test func decodesOnceDefaultingTheModelAndReadingTheScenario() throws {
        let r = try AgentSurface().decode(Array(#"{"scenario":"assistant","messages":[{"role":"user","content":"hi"}]}"#.utf8))
        #expect(r.chat.model == "auto" && r.scenario == "assistant" && r.stream)
        #expect(r.chat.messages.first?.text == "hi")
    }

    @Test(arguments: [("[]", "must be a JSON object"), (#"{"scenario":3,"messages":[]}"#, "`scenario` must be a string"),
                      (#"{"messages":"hi"}"#, "messages"), (#"{"messages":[}"#, "invalid JSON at byte 13"), ("", "invalid JSON at byte 0")])
    func badBodiesAre400sThatSayWhatToSend(_ body: String, _ says: String) {
        do {
            _ = try AgentSurface().decode(Array(body.utf8))
            Issue.record("expected a 400")
        } catch let e as GatewayError {
            #expect(e.status == 400 && e.message.contains(says), "\(e.message)")
        } catch { Issue.record("unexpected \(error)") }
    }
}
