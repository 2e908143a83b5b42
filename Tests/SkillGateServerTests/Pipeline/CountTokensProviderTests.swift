import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// `POST /v1/messages/count_tokens` when the deployment the request would go to first is Anthropic's (decision 0132):
/// the provider's own count, asked at its count endpoint with the Messages body the gateway would send less what only
/// shapes the answer; when that count fails, the gateway's estimate, with a note in the log.
@Suite struct CountTokensProviderTests {
    static let body = #"""
    {"model":"light","system":"You are a coding agent.","max_tokens":1024,"temperature":0.2,"stop_sequences":["END"],
     "metadata":{"user_id":"u1"},
     "tools":[{"name":"read_file","description":"Read a file","input_schema":{"type":"object","properties":{"path":{"type":"string"}}}}],
     "messages":[{"role":"user","content":"Summarise README.md"}]}
    """#

    static func count(_ gw: ResilienceGateway) async throws -> (status: Int, headers: HTTPHeaders, json: JSONValue) {
        let r = try await gw.http.send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(gw.server.boundPort)/v1/messages/count_tokens?beta=true",
                                                   headers: ["x-api-key": gw.token, "content-type": "application/json", "anthropic-version": "2023-06-01"],
                                                   body: Array(Self.body.utf8)))
        return (r.status, r.headers, (try? JSONValue.parse(r.body)) ?? .null)
    }

    @Test func anAnthropicDeploymentCountsItself() async throws {
        let answer = UpstreamDouble.Reply.json(status: 200, body: Array(#"{"input_tokens":1234}"#.utf8), headers: [:])
        try await GatewayFailedAnswerTests.withGateway(a: [answer], wireFormat: "anthropic-messages") { gw, da, _ in
            let r = try await Self.count(gw)
            #expect(r.status == 200 && r.json == ["input_tokens": 1234] && r.headers["x-skillgate-token-count"] == "provider", "\(r.json)")
            let seen = try #require(da.requests.first)
            #expect(da.requestCount == 1 && seen.path.hasSuffix("/messages/count_tokens"), "\(seen.path)")
            #expect(seen.headers["anthropic-version"] != nil)
            let sent = try #require(seen.json)
            #expect(Set(sent.keys) == ["model", "system", "messages", "tools"], "only what the count endpoint takes: \(sent.keys.sorted())")
            #expect(sent["model"] as? String == "m")
            let line = await gw.logLines().last ?? [:]
            #expect(line["model"] as? String == "up-a/m" && line["status"] as? Int == 200, "\(line)")
        }
    }

    /// A count the provider refuses (overloaded) is answered with the estimate, and the log says why.
    @Test func aFailedCountIsAnsweredWithTheEstimate() async throws {
        let overloaded = UpstreamDouble.Reply.json(status: 529, body: Array(#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#.utf8), headers: [:])
        try await GatewayFailedAnswerTests.withGateway(a: [overloaded], wireFormat: "anthropic-messages") { gw, da, _ in
            let r = try await Self.count(gw)
            #expect(r.status == 200 && r.headers["x-skillgate-token-count"] == "estimated", "\(r.json)")
            #expect((r.json["input_tokens"]?.intValue ?? 0) > 530, "the estimate, with the tool-use prompt: \(r.json)")
            #expect(da.requestCount == 1)
            let line = await gw.logLines().last ?? [:]
            let attempts = line["attempts"] as? [String] ?? []
            #expect(attempts.first?.hasPrefix("up-a/m: token count failed (503 upstream_overloaded") == true && attempts.first?.hasSuffix("; estimated") == true,
                    "\(line)")
        }
    }
}
