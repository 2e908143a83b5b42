import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
@testable import SkillGateServer

/// `POST /v1/responses/input_tokens` (the OpenAI SDKs' `responses.input_tokens.count`, decision 0136) through a gateway
/// whose deployment does not count itself (an OpenAI-compatible upstream double): the estimate, in the OpenAI shape,
/// never sent upstream and never a ledger request; `previous_response_id` counts the stored conversation; errors in the
/// Responses API's shape with the same statuses as `/v1/responses`. (The provider's counts: `CountTokensProviderTests`.)
@Suite struct ResponsesInputTokensTests {
    typealias H = SkillsGatewayHarness
    static let config = #""scenarios":{"chat":{},"cheap":{"allowed_models":["light"]}}"#

    /// A request as an agent sends it: instructions, a tool, a tool round trip in the input, and CJK text.
    static let agentLike = #"""
    {"model":"light","instructions":"You are a coding agent.",
     "tools":[{"type":"function","name":"read_file","description":"Read a file","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}],
     "input":[{"role":"user","content":"Open README.md and summarise it, 請簡短。"},
              {"type":"function_call","call_id":"call_1","name":"read_file","arguments":"{\"path\":\"README.md\"}"},
              {"type":"function_call_output","call_id":"call_1","output":"# SkillGate\nA Swift LLM gateway."}]}
    """#

    static func count(_ h: H, _ body: String, token: String? = nil, headers: HTTPHeaders = [:], method: String = "POST") async throws
        -> (status: Int, headers: HTTPHeaders, json: JSONValue) {
        var all = headers
        if let token = token ?? Optional(h.token), !token.isEmpty { all.set("authorization", "Bearer \(token)") }
        all.set("content-type", "application/json")
        let r = try await h.client.send(HTTPRequest(method: method, url: "http://127.0.0.1:\(h.gateway.boundPort)/v1/responses/input_tokens",
                                                    headers: all, body: method == "POST" ? Array(body.utf8) : []))
        return (r.status, r.headers, (try? JSONValue.parse(r.body)) ?? .null)
    }

    static func estimate(_ body: String) throws -> Int {
        ContextTokenEstimate.inputTokens(of: try OpenAIResponsesFormat.decodeInboundRequest(Array(body.utf8)).request)
    }

    @Test func aRequestIsCountedHighWithoutReachingTheUpstream() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("unused")])
        let r = try await Self.count(h, Self.agentLike)
        let longer = try await Self.count(h, Self.agentLike.replacingOccurrences(of: "A Swift LLM gateway.", with: String(repeating: "A Swift LLM gateway. ", count: 50)))
        let lines = await h.logLines()
        let ledger = try await ledgerSpend(of: h.gateway, until: .now + .milliseconds(300))
        await h.stop()
        let request = try OpenAIResponsesFormat.decodeInboundRequest(Array(Self.agentLike.utf8)).request
        #expect(r.status == 200 && r.headers["x-skillgate-token-count"] == "estimated", "\(r.json)")
        #expect(r.json == ["object": "response.input_tokens", "input_tokens": .int(ContextTokenEstimate.inputTokens(of: request))])
        #expect((r.json["input_tokens"]?.intValue ?? 0) > UsageEstimate.tokens(bytes: UsageEstimate.inputBytes(of: request)), "above the billing estimate")
        #expect((longer.json["input_tokens"]?.intValue ?? 0) > (r.json["input_tokens"]?.intValue ?? 0) + 300)
        #expect(h.upstream.requests.isEmpty, "nothing is sent to a provider that does not count")
        let line = try #require(lines.last)
        #expect(line["token"] == "skills-test" && line["status"] == 200 && line["surface"] == nil && line["path"] == "/v1/responses/input_tokens",
                "logged with the token's name, as no surface's request: \(line)")
        #expect(ledger.requests == 0, "no ledger row")
    }

    /// `previous_response_id` counts the conversation it continues, as `/v1/responses` would send it: the stored input and
    /// answer before the new input (instructions first); for another token it is the same 404 as `/v1/responses` answers.
    @Test func previousResponseIdCountsTheStoredConversation() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there, how can I help you with this repository today?")])
        let kept = try await ResponsesSurfaceTests.post(h, #"{"model":"light","input":"Hi, I have a question about the README of this repository."}"#)
        let id = try #require(kept.json["id"]?.stringValue)
        let other = try h.gateway.services.tokens.create(name: "someone-else").token
        let continued = #"{"model":"light","instructions":"Be brief.","previous_response_id":"\#(id)","input":"And now?"}"#
        let r = try await Self.count(h, continued)
        let alone = try await Self.count(h, #"{"model":"light","instructions":"Be brief.","input":"And now?"}"#)
        let theirs = try await Self.count(h, continued, token: other)
        let created = try await ResponsesSurfaceTests.post(h, continued, token: other)
        await h.stop()
        let whole = ChatRequest(model: "light", messages: [Message(role: .system, text: "Be brief."),
                                                           Message(role: .user, text: "Hi, I have a question about the README of this repository."),
                                                           Message(role: .assistant, text: "Hello there, how can I help you with this repository today?"),
                                                           Message(role: .user, text: "And now?")])
        #expect(r.status == 200 && r.json["input_tokens"] == .int(ContextTokenEstimate.inputTokens(of: whole)), "\(r.json)")
        #expect((r.json["input_tokens"]?.intValue ?? 0) > (alone.json["input_tokens"]?.intValue ?? .max), "\(alone.json)")
        #expect(theirs.status == 404 && created.status == 404 && theirs.json["error"]?["param"] == "previous_response_id", "\(theirs.json)")
        #expect(theirs.json["error"]?["message"] == created.json["error"]?["message"], "the same 404 as /v1/responses")
    }

    /// Bad input gets the Responses error shape (`error.message`, `type`, `param`, `code`), naming what to fix; a model
    /// outside the scenario or the token's models is refused as on `/v1/responses`.
    @Test func badRequestsAreRefusedInTheResponsesShape() async throws {
        let h = try H(config: Self.config, script: [:])
        let narrow = try h.makeToken(name: "light-only", models: ["light"])
        let noModel = try await Self.count(h, #"{"input":"hi"}"#)
        let badInput = try await Self.count(h, #"{"model":"light","input":42}"#)
        let emptyInput = try await Self.count(h, #"{"model":"light","input":[]}"#)
        let notJSON = try await Self.count(h, "{")
        let conversation = try await Self.count(h, #"{"model":"light","input":"hi","conversation":"conv_1"}"#)
        let outsideScenario = try await Self.count(h, #"{"model":"strong","input":"hi"}"#, headers: ["x-skillgate-scenario": "cheap"])
        let outsideToken = try await Self.count(h, #"{"model":"strong","input":"hi"}"#, token: narrow)
        let unknown = try await Self.count(h, #"{"model":"nothing-here","input":"hi"}"#)
        let noToken = try await Self.count(h, #"{"model":"light","input":"hi"}"#, token: "")
        let get = try await Self.count(h, "", method: "GET")
        await h.stop()
        for (r, status, param) in [(noModel, 400, "model"), (badInput, 400, "input"), (emptyInput, 400, "input"), (notJSON, 400, nil),
                                   (conversation, 400, "conversation"), (outsideScenario, 403, nil), (outsideToken, 403, nil), (unknown, 404, nil),
                                   (noToken, 401, nil), (get, 405, "method")] as [((status: Int, headers: HTTPHeaders, json: JSONValue), Int, String?)] {
            let error = r.json["error"]
            #expect(r.status == status && error?["message"]?.stringValue?.isEmpty == false && error?["type"]?.stringValue != nil, "\(status): \(r.json)")
            if let param { #expect(error?["param"]?.stringValue == param, "\(status): \(r.json)") }
        }
        #expect(get.headers["allow"] == "POST" && get.json["error"]?["message"]?.stringValue?.contains("POST") == true, "\(get.json)")
    }
}
