import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateSkills
@testable import SkillGateServer

/// An upstream that streams without end is cut at the answer's bound on every path (decision 0155; here 1 MiB,
/// `limits.max_answer_mib`, so the test moves little through the shared test process): a plain relay, an
/// answer read whole to check it (an escalating model's), the Responses surface (which keeps the answer for
/// `response.completed`) and an agent run. Before, the paths that hold the answer grew the gateway by 0.4 to 2.4 GB a
/// request, for as long as the upstream went on (`total_seconds`, 600 s by default).
@Suite(.serialized) struct AnswerSizeLimitGatewayTests {
    struct Path: Sendable, CustomTestStringConvertible {
        let name: String
        let route: String
        let body: JSONValue
        let escalate: Bool
        var testDescription: String { name }
    }

    static let paths: [Path] = [
        Path(name: "chat stream relayed", route: "/v1/chat/completions",
             body: ["model": "light", "stream": true, "messages": [["role": "user", "content": "write"]]], escalate: false),
        Path(name: "chat stream read whole to check it", route: "/v1/chat/completions",
             body: ["model": "light", "stream": true, "messages": [["role": "user", "content": "write"]]], escalate: true),
        Path(name: "responses stream", route: "/v1/responses",
             body: ["model": "light", "stream": true, "input": "write"], escalate: false),
        Path(name: "agent run", route: "/v1/agent",
             body: ["messages": [["role": "user", "content": "write"]]], escalate: false),
    ]

    @Test(arguments: paths)
    func anAnswerStreamingWithoutEndIsCutAtItsBound(_ path: Path) async throws {
        // Server-side skills only for the agent run: with them, a chat's model calls are whole, not streamed.
        let skills = path.route == "/v1/agent" ? [TestSkill.fixed("clock", "07:55 UTC")] : []
        let h = try AgentGatewayHarness(skills: skills, upstream: AgentUpstream(tool: "clock", flood: true), escalate: path.escalate,
                                        maxAnswerMiB: 1)
        // A client that reads what the gateway relays before it cuts the answer.
        let client = HTTPClient(configuration: .init(maxResponseBytes: 64 << 20))
        defer { client.shutdown() }
        let r = try await AgentGatewayHarness.post(client, port: h.gateway.boundPort, token: h.token, path.route, path.body)
        let line = await h.logLines().last
        await h.stop()
        let tail = String(r.body.suffix(2_000))
        #expect(tail.contains("passed 1 MiB"), "\(r.status): \(tail)")
        #expect(line?["error_kind"]?.stringValue == "upstream_protocol" || line?["outcome"]?.stringValue == "upstream_protocol"
                || tail.contains("upstream_protocol"), "\(String(describing: line))")
    }
}
