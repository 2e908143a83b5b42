import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import Synchronization
@testable import SkillGateServer

/// `POST /v1/responses` through a real gateway in front of an OpenAI-format upstream double: the
/// pipeline's stages (scenarios, packs, routing, the agent loop, the log) apply as on the other
/// surfaces, answers are stored per token for `previous_response_id`, and bad input gets a clear
/// error in the Responses shape.
@Suite struct ResponsesSurfaceTests {
    static let config = #"""
    "skill_packs":{"weather":["get_weather","current_time"]},
    "scenarios":{"chat":{"skill_packs":["weather"]},"strict":{"skill_packs":["weather"],"disallowed_tools":"reject"}},
    "aliases":{"fast":"up/light-native"}
    """#
    typealias H = SkillsGatewayHarness

    static func post(_ h: H, _ body: String, token: String? = nil, scenario: String? = nil) async throws -> (status: Int, headers: HTTPHeaders, json: JSONValue, text: String) {
        let r = try await h.chat(try JSONValue.parse(body), scenario: scenario, token: token, path: "/v1/responses")
        return (r.status, r.headers, (try? JSONValue.parse(r.body)) ?? .null, r.body)
    }

    /// The `data:` payloads of an SSE body, parsed.
    static func events(_ body: String) throws -> [JSONValue] {
        try body.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { try JSONValue.parse(String($0.dropFirst(6))) }
    }

    @Test func aTextAnswerIsAResponseObjectAndTheUpstreamSeesInstructionsAndInput() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        let r = try await Self.post(h, #"{"model":"fast","instructions":"Be brief.","input":"Hi","max_output_tokens":50}"#)
        await h.stop()
        #expect(r.status == 200)
        #expect(r.headers["x-skillgate-model"] == "up/light-native")
        #expect(r.json["object"] == "response" && r.json["status"] == "completed" && r.json["id"]?.stringValue?.hasPrefix("resp_") == true)
        #expect(r.json["output"]?.arrayValue?.first?["content"]?.arrayValue?.first?["text"] == "Hello there.")
        #expect(r.json["usage"]?["input_tokens"] == 5 && r.json["usage"]?["output_tokens"] == 3 && r.json["usage"]?["total_tokens"] == 8)
        let sent = try #require(h.upstream.requests.first)
        #expect(sent["messages"] == [["role": "system", "content": "Be brief."], ["role": "user", "content": "Hi"]])
        #expect(sent["max_tokens"] == 50)
        let line = try #require(await h.logLines().last)
        #expect(line["surface"] == "responses" && line["status"] == 200 && line["input_tokens"] == 5)
    }

    @Test func aStreamIsTheResponsesEventSequence() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Hello there.")])
        let r = try await Self.post(h, #"{"model":"light","input":"Hi","stream":true}"#)
        await h.stop()
        #expect(r.status == 200)
        let events = try Self.events(r.text)
        #expect(events.first?["type"] == "response.created" && events.last?["type"] == "response.completed")
        #expect(events.enumerated().allSatisfy { $1["sequence_number"] == .int($0) })
        let text = events.filter { $0["type"] == "response.output_text.delta" }.compactMap { $0["delta"]?.stringValue }.joined()
        #expect(text == "Hello there.")
        #expect(events.last?["response"]?["output"]?.arrayValue?.first?["content"]?.arrayValue?.first?["text"] == "Hello there.")
        #expect(!r.text.contains("[DONE]") && !r.text.contains("chat.completion"))
    }

    /// A function tool round trip, the second turn continuing the first by `previous_response_id`:
    /// the upstream sees the whole conversation (input, call, result) in its own format.
    @Test(arguments: [false, true])
    func aToolRoundTripContinuesTheStoredConversation(stream: Bool) async throws {
        let h = try H(config: Self.config, script: ["light-native": .toolCall(name: "get_weather", arguments: #"{"city":"Oslo"}"#)])
        let tools = #"[{"type":"function","name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}]"#
        let first = try await Self.post(h, #"{"model":"light","input":"Weather in Oslo?","stream":\#(stream),"tools":\#(tools)}"#)
        let response = stream ? try #require(Self.events(first.text).last?["response"]) : first.json
        let call = try #require(response["output"]?.arrayValue?.first { $0["type"] == "function_call" })
        #expect(call["name"] == "get_weather" && call["call_id"] == "call_1" && call["arguments"] == #"{"city":"Oslo"}"#)
        let id = try #require(response["id"]?.stringValue)

        let second = try await Self.post(h, #"""
            {"model":"light","previous_response_id":"\#(id)","tools":\#(tools),"stream":\#(stream),
             "input":[{"type":"function_call_output","call_id":"call_1","output":"Sunny, 21 C"}]}
            """#)
        await h.stop()
        #expect(second.status == 200)
        let sent = try #require(h.upstream.requests.last?["messages"]?.arrayValue)
        #expect(sent.map { $0["role"] } == ["user", "assistant", "tool"])
        #expect(sent[0]["content"] == "Weather in Oslo?")
        #expect(sent[1]["tool_calls"]?.arrayValue?.first?["function"]?["name"] == "get_weather")
        #expect(sent[2] == ["role": "tool", "tool_call_id": "call_1", "content": "Sunny, 21 C"])
    }

    /// A chain of three responses (each stored conversation starts with the previous one's stored items, copied)
    /// sends the upstream the same messages as one request carrying the whole conversation as `input` items (the
    /// responses' output items sent back, as the Agents SDK does): non-ASCII text and escapes, an image, an
    /// assistant item in the input next to the answer, tool calls and their output.
    @Test(arguments: [false, true])
    func aChainOfThreeSendsWhatTheWholeConversationSends(stream: Bool) async throws {
        let h = try H(config: Self.config, script: ["light-native": .toolCall(name: "get_weather", arguments: #"{"city":"Köln"}"#),
                                                    "strong-native": .text("Grüße \"zurück\" \\ 漢字 🎉\nZeile")])
        let tools = #"[{"type":"function","name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}]"#
        let user = #"{"role":"user","content":[{"type":"input_text","text":"Wetter in Köln? \"bitte\" \\ \t 漢字 🎉"},{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo="}]}"#
        let lead = #"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Moment…"}]}"#
        let next = #"{"role":"user","content":"Und morgen?"}"#
        let output = #"{"type":"function_call_output","call_id":"call_1","output":"Sonnig, 21 °C"}"#
        /// The response object of an answer, whole or the stream's last event's.
        func response(_ r: (status: Int, headers: HTTPHeaders, json: JSONValue, text: String)) throws -> JSONValue {
            #expect(r.status == 200)
            return try #require(stream ? try Self.events(r.text).last?["response"] : r.json)
        }
        func items(_ response: JSONValue) throws -> String {
            try #require(response["output"]?.arrayValue).map { $0.serialized() }.joined(separator: ",")
        }
        let first = try response(await Self.post(h, #"{"model":"strong","stream":\#(stream),"tools":\#(tools),"input":[\#(user),\#(lead)]}"#))
        let firstId = try #require(first["id"]?.stringValue)
        let second = try response(await Self.post(h, #"{"model":"light","stream":\#(stream),"tools":\#(tools),"previous_response_id":"\#(firstId)","input":[\#(next)]}"#))
        let secondId = try #require(second["id"]?.stringValue)
        _ = try response(await Self.post(h, #"{"model":"light","stream":\#(stream),"tools":\#(tools),"previous_response_id":"\#(secondId)","input":[\#(output)]}"#))
        _ = try response(await Self.post(h, #"""
            {"model":"light","stream":\#(stream),"tools":\#(tools),"store":false,
             "input":[\#(user),\#(lead),\#(try items(first)),\#(next),\#(try items(second)),\#(output)]}
            """#))
        await h.stop()
        let sent = h.upstream.requests.compactMap { $0["messages"]?.arrayValue }
        try #require(sent.count == 4)
        #expect(sent[2] == sent[3])
        #expect(sent[2].map { $0["role"] } == ["user", "assistant", "user", "assistant", "tool"])
        #expect(sent[2][1]["content"] == "Moment…Grüße \"zurück\" \\ 漢字 🎉\nZeile")
        #expect(Array(sent[2].prefix(3)) == sent[1] && sent[1][0] == sent[0][0])
    }

    @Test func previousResponsesOfOtherTokensUnknownOnesAndUnstoredOnesAre404s() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Noted.")])
        let other = try h.makeToken(name: "other-app", models: [])
        let stored = try await Self.post(h, #"{"model":"light","input":"Remember 7."}"#)
        let unstored = try await Self.post(h, #"{"model":"light","input":"Forget this.","store":false}"#)
        let id = try #require(stored.json["id"]?.stringValue)
        let unstoredId = try #require(unstored.json["id"]?.stringValue)
        #expect(unstored.json["store"] == false)
        let byOwner = try await Self.post(h, #"{"model":"light","previous_response_id":"\#(id)","input":"Which number?"}"#)
        let byOther = try await Self.post(h, #"{"model":"light","previous_response_id":"\#(id)","input":"Which number?"}"#, token: other)
        let unknown = try await Self.post(h, #"{"model":"light","previous_response_id":"resp_000000","input":"x"}"#)
        let notKept = try await Self.post(h, #"{"model":"light","previous_response_id":"\#(unstoredId)","input":"x"}"#)
        await h.stop()
        #expect(byOwner.status == 200)
        #expect(h.upstream.requests.count == 3)  // the 404s never reached the upstream
        for r in [byOther, unknown, notKept] {
            #expect(r.status == 404)
            #expect(r.json["error"]?["code"] == "previous_response_not_found")
            #expect(r.json["error"]?["param"] == "previous_response_id" && r.json["error"]?["type"] == "invalid_request_error")
            #expect(r.json["error"]?["message"]?.stringValue?.contains("send the whole conversation") == true)
        }
        #expect(byOther.json == unknown.json.replacing(id: "resp_000000", with: id))
    }

    /// Expiry by the gateway's clock: the answer is continued within `responses.retention_hours`, and is a 404
    /// once the clock passed it, both while it waits in memory for the writer and once it is in the state store.
    @Test func anExpiredResponseIsA404() async throws {
        let clock = Mutex(Date())
        let h = try H(config: Self.config + #","responses":{"retention_hours":1}"#, script: ["light-native": .text("Noted.")],
                      now: { clock.locked { $0 } })
        let stored = try await Self.post(h, #"{"model":"light","input":"Remember 7."}"#)
        let id = try #require(stored.json["id"]?.stringValue)
        let soon = try await Self.post(h, #"{"model":"light","previous_response_id":"\#(id)","input":"Which?"}"#)
        clock.locked { $0 += 3601 }
        let late = try await Self.post(h, #"{"model":"light","previous_response_id":"\#(id)","input":"Which?"}"#)
        await h.gateway.services.responses.flushOffThePool()
        let lateFromStore = try await Self.post(h, #"{"model":"light","previous_response_id":"\#(id)","input":"Which?"}"#)
        await h.stop()
        #expect(soon.status == 200)
        #expect(late.status == 404 && late.json["error"]?["code"] == "previous_response_not_found")
        #expect(lateFromStore.status == 404 && lateFromStore.json["error"]?["code"] == "previous_response_not_found")
    }

    @Test(arguments: [
        (#"{"model":"light","input":[{"role":"user","content":"a"},{"type":"function_call","name":"f"}]}"#, "input[1].call_id"),
        (#"{"model":"light","input":[{"type":"message","role":"user","content":[{"type":"input_file","file_id":"x"}]}]}"#, "input[0].content[0].type"),
        (#"{"model":"light","input":"x","tools":[{"type":"file_search"}]}"#, "tools[0].type"),
        (#"{"model":"light"}"#, "input"),
    ])
    func malformedRequestsAre400sInTheResponsesShape(body: String, param: String) async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("x")])
        let r = try await Self.post(h, body)
        await h.stop()
        #expect(r.status == 400)
        #expect(r.json["error"]?["param"] == .string(param) && r.json["error"]?["type"] == "invalid_request_error")
        #expect(r.json["error"]?["code"] == "invalid_request")
        #expect(h.upstream.requests.isEmpty)
    }

    /// Skill packs and scenarios apply as on the other surfaces: tools outside the packs are
    /// removed before the upstream, or refused in a rejecting scenario.
    @Test func skillPacksAndScenariosApply() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("Sunny.")])
        let tools = #"[{"type":"function","name":"get_weather","parameters":{"type":"object","properties":{}}},{"type":"function","name":"delete_files"}]"#
        let r = try await Self.post(h, #"{"model":"light","input":"weather?","tools":\#(tools)}"#)
        let refused = try await Self.post(h, #"{"model":"light","input":"weather?","tools":\#(tools)}"#, scenario: "strict")
        await h.stop()
        #expect(r.status == 200 && r.headers["x-skillgate-skills"] == "visible=get_weather; removed=delete_files")
        #expect(h.upstream.requests.first?["tools"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue } == ["get_weather"])
        #expect(refused.status == 403 && refused.json["error"]?["type"] == "permission_error")
        #expect(h.upstream.requests.count == 1)
    }

    @Test func autoRoutingAndTiersResolveAsOnTheOtherSurfaces() async throws {
        let h = try H(config: Self.config, script: ["light-native": .text("a"), "strong-native": .text("b")])
        let strong = try await Self.post(h, #"{"model":"strong","input":"x"}"#)
        let auto = try await Self.post(h, #"{"model":"auto","input":"hi"}"#)
        await h.stop()
        #expect(strong.headers["x-skillgate-model"] == "up/strong-native" && strong.json["model"] == "up/strong-native")
        #expect(auto.status == 200 && auto.headers["x-skillgate-route"] != nil)
    }
}

extension JSONValue {
    /// This value with every string equal to `id` replaced (to compare two errors about different ids).
    func replacing(id: String, with other: String) -> JSONValue {
        switch self {
        case .string(let s): return .string(s.replacingOccurrences(of: id, with: other))
        case .array(let a): return .array(a.map { $0.replacing(id: id, with: other) })
        case .object(let o): return .object(JSONObject(o.members.map { .init(key: $0.key, value: $0.value.replacing(id: id, with: other)) }))
        default: return self
        }
    }
}
