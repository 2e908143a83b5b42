import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
@testable import SkillGateServer

/// `POST /v1/messages/count_tokens` (decision 0132) through a gateway: an estimate that errs high, for a Messages request
/// without `max_tokens`, never sent upstream and never a ledger request; errors in the Anthropic shape.
@Suite struct CountTokensTests {
    typealias H = SkillsGatewayHarness
    static let config = #""scenarios":{"chat":{},"cheap":{"allowed_models":["light"]}}"#

    /// A request as Claude Code sends it: system blocks, tools, and a tool round trip in the history.
    static let claudeCodeLike = #"""
    {"model":"light","system":[{"type":"text","text":"You are a coding agent.","cache_control":{"type":"ephemeral"}}],
     "tools":[{"name":"read_file","description":"Read a file","input_schema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}],
     "messages":[{"role":"user","content":"Open README.md and summarise it, 請簡短。"},
                 {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"README.md"}}]},
                 {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"# SkillGate\nA Swift LLM gateway."}]}]}
    """#

    static func count(_ h: H, _ body: String, token: String? = nil, headers: HTTPHeaders = [:], method: String = "POST",
                      path: String = "/v1/messages/count_tokens") async throws -> (status: Int, headers: HTTPHeaders, json: JSONValue) {
        var all = headers
        if let token = token ?? Optional(h.token), !token.isEmpty { all.set("x-api-key", token) }
        all.set("content-type", "application/json")
        all.set("anthropic-version", "2023-06-01")
        let r = try await h.client.send(HTTPRequest(method: method, url: "http://127.0.0.1:\(h.gateway.boundPort)\(path)", headers: all,
                                                    body: method == "POST" ? Array(body.utf8) : []))
        return (r.status, r.headers, (try? JSONValue.parse(r.body)) ?? .null)
    }

    @Test func aRequestIsCountedHighWithoutReachingTheUpstream() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("unused")])
        let r = try await Self.count(h, Self.claudeCodeLike, path: "/v1/messages/count_tokens?beta=true")
        let longer = try await Self.count(h, Self.claudeCodeLike.replacingOccurrences(of: "A Swift LLM gateway.", with: String(repeating: "A Swift LLM gateway. ", count: 50)))
        let lines = await h.logLines()
        let ledger = try await ledgerSpend(of: h.gateway, until: .now + .milliseconds(300))
        await h.stop()
        let request = try AnthropicMessagesFormat.decodeCountTokensRequest(Array(Self.claudeCodeLike.utf8))
        #expect(r.status == 200 && r.headers["x-skillgate-token-count"] == "estimated", "\(r.json)")
        #expect(r.json == ["input_tokens": .int(ContextTokenEstimate.inputTokens(of: request))])
        #expect((r.json["input_tokens"]?.intValue ?? 0) > UsageEstimate.tokens(bytes: UsageEstimate.inputBytes(of: request)), "above the billing estimate")
        #expect((longer.json["input_tokens"]?.intValue ?? 0) > (r.json["input_tokens"]?.intValue ?? 0) + 300)
        #expect(h.upstream.requests.isEmpty, "nothing is sent to a provider")
        let line = try #require(lines.last)
        #expect(line["token"] == "skills-test" && line["status"] == 200 && line["surface"] == nil && line["path"] == "/v1/messages/count_tokens",
                "logged with the token's name, as no surface's request: \(line)")
        #expect(ledger.requests == 0, "no ledger row: Claude Code counts every turn")
    }

    /// Bad input gets the Anthropic error shape, naming what to fix; a model outside the scenario is refused as on
    /// `/v1/messages`.
    @Test func badRequestsAreRefusedInTheAnthropicShape() async throws {
        let h = try H(config: Self.config, script: [:])
        let noModel = try await Self.count(h, #"{"messages":[{"role":"user","content":"hi"}]}"#)
        let noMessages = try await Self.count(h, #"{"model":"light"}"#)
        let badRole = try await Self.count(h, #"{"model":"light","messages":[{"role":"robot","content":"hi"}]}"#)
        let notJSON = try await Self.count(h, "{")
        let outside = try await Self.count(h, #"{"model":"strong","messages":[{"role":"user","content":"hi"}]}"#, headers: ["x-skillgate-scenario": "cheap"])
        let unknown = try await Self.count(h, #"{"model":"nothing-here","messages":[{"role":"user","content":"hi"}]}"#)
        let noToken = try await Self.count(h, #"{"model":"light","messages":[{"role":"user","content":"hi"}]}"#, token: "")
        let get = try await Self.count(h, "", method: "GET")
        await h.stop()
        for (r, status) in [(noModel, 400), (noMessages, 400), (badRole, 400), (notJSON, 400), (outside, 403), (unknown, 404), (noToken, 401), (get, 405)] {
            #expect(r.status == status && r.json["type"] == "error" && r.json["error"]?["message"]?.stringValue?.isEmpty == false, "\(status): \(r.json)")
        }
        #expect(noMessages.json["error"]?["message"]?.stringValue?.contains("messages") == true)
        #expect(get.headers["allow"] == "POST")
    }
}
