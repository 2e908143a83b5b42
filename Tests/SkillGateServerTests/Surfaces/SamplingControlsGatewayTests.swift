import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
@testable import SkillGateServer
import SkillGateTestSupport

/// Sampling controls through the real gateway (decision 0094): from the OpenAI surface, `seed`, the penalties and
/// `logit_bias` reach an OpenAI-format provider; `seed`, the penalties and (from the Anthropic surface) `top_k` reach a
/// Gemini provider's `generationConfig`; an Anthropic provider gets `top_k` and none of the others; `logprobs` is a 400
/// before any provider is called.
@Suite struct SamplingControlsGatewayTests {
    /// The recorded Gemini text answer (`Tests/Fixtures/gemini/google-text.chunks.txt`) as the JSON array of chunks
    /// `streamGenerateContent` answers without `alt=sse`.
    static var geminiText: UpstreamDouble.Reply {
        let url = OpenAIRecordings.root.deletingLastPathComponent().appendingPathComponent("gemini/google-text.chunks.txt")
        let lines = ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n")
        return .json(status: 200, body: Array(("[" + lines.joined(separator: ",") + "]").utf8), headers: [:])
    }

    static var anthropicText: UpstreamDouble.Reply {
        let url = OpenAIRecordings.root.deletingLastPathComponent().appendingPathComponent("anthropic/anthropic-text.json")
        return .json(status: 200, body: (try? Array(Data(contentsOf: url))) ?? [], headers: [:])
    }

    final class Upstreams: Sendable {
        let openAI: UpstreamDouble
        let anthropic: UpstreamDouble
        let gemini: UpstreamDouble
        init() throws {
            openAI = try UpstreamDouble([OpenAIRecordings.text])
            anthropic = try UpstreamDouble([SamplingControlsGatewayTests.anthropicText])
            gemini = try UpstreamDouble([SamplingControlsGatewayTests.geminiText])
        }
        func stop() async { await openAI.stop(); await anthropic.stop(); await gemini.stop() }
        var requestCount: Int { openAI.requestCount + anthropic.requestCount + gemini.requestCount }
    }

    final class Gateway: Sendable {
        let directory: String
        let server: GatewayServer
        let token: String
        let http = HTTPClient()

        init(_ upstreams: Upstreams) throws {
            directory = NSTemporaryDirectory() + "skillgate-sampling-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory + "/providers", withIntermediateDirectories: true)
            let providers = [
                "oai": #"{"id":"oai","display_name":"oai","wire_format":"openai-chat","base_url":"\#(upstreams.openAI.baseURL)","auth":"none","models":[{"id":"gpt-test","tier":"light","context_window":8000,"tools":"native"}]}"#,
                "anth": #"{"id":"anth","display_name":"anth","wire_format":"anthropic-messages","base_url":"\#(upstreams.anthropic.baseURL)","auth":"x-api-key","key_name":"ANTH_KEY","models":[{"id":"claude-test","tier":"strong","context_window":200000,"tools":"native"}]}"#,
                "gem": #"{"id":"gem","display_name":"gem","wire_format":"gemini","base_url":"\#(upstreams.gemini.baseURL)","auth":"x-goog-api-key","key_name":"GEM_KEY","models":[{"id":"gemini-test","tier":"strong","context_window":1000000,"tools":"native"}]}"#,
            ]
            for (name, text) in providers { try text.writeAtomically(toFile: directory + "/providers/\(name).json") }
            let config = #"""
            {"listen":"127.0.0.1:0","state_dir":"state","providers_dir":"providers",
             "tiers":{"light":["oai/gpt-test"],"strong":["anth/claude-test"]},"aliases":{"gem":"gem/gemini-test"},"default_model":"strong"}
            """#
            try config.writeAtomically(toFile: directory + "/skillgate.json")
            let loaded = try GatewayConfig.load(path: directory + "/skillgate.json")
            let keys = try KeyStore(path: loaded.keyFile)
            try keys.set("ANTH_KEY", secret: "sk-ant-sampling-test-0123456789")
            try keys.set("GEM_KEY", secret: "AIza-sampling-test-0123456789")
            token = try GatewayServer.openTokenService(config: loaded).create(name: "sampling-test").token
            server = try GatewayServer(config: loaded, logFD: -1)
            try server.start()
        }

        func post(_ path: String, _ body: String) async throws -> (status: Int, json: JSONValue) {
            let headers: HTTPHeaders = ["authorization": "Bearer \(token)", "content-type": "application/json", "anthropic-version": "2023-06-01"]
            let r = try await http.send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(server.boundPort)\(path)", headers: headers, body: Array(body.utf8)))
            return (r.status, (try? JSONValue.parse(r.body)) ?? .null)
        }

        func stop() async {
            await server.shutdown()
            http.shutdown()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    static let controls = #""seed":7,"frequency_penalty":0.5,"presence_penalty":-0.25,"logit_bias":{"50256":-100}"#

    @Test func anOpenAIFormatProviderGetsThemAll() async throws {
        let upstreams = try Upstreams()
        let gw = try Gateway(upstreams)
        let r = try await gw.post("/v1/chat/completions", #"{"model":"light","messages":[{"role":"user","content":"hi"}],\#(Self.controls)}"#)
        #expect(r.status == 200)
        let sent = try #require(upstreams.openAI.requests.last?.json)
        #expect(sent["seed"] as? Int == 7)
        #expect(sent["frequency_penalty"] as? Double == 0.5)
        #expect(sent["presence_penalty"] as? Double == -0.25)
        #expect((sent["logit_bias"] as? [String: Any])?["50256"] as? Int == -100)
        await gw.stop()
        await upstreams.stop()
    }

    @Test func aGeminiProviderGetsThemInItsGenerationConfig() async throws {
        let upstreams = try Upstreams()
        let gw = try Gateway(upstreams)
        let r = try await gw.post("/v1/chat/completions", #"{"model":"gem","messages":[{"role":"user","content":"hi"}],\#(Self.controls)}"#)
        #expect(r.status == 200, "\(r.json)")
        let config = try #require(upstreams.gemini.requests.last?.json?["generationConfig"] as? [String: Any])
        #expect(config["seed"] as? Int == 7)
        #expect(config["frequencyPenalty"] as? Double == 0.5)
        #expect(config["presencePenalty"] as? Double == -0.25)
        #expect(config.keys.sorted() == ["frequencyPenalty", "presencePenalty", "seed"])
        let fromAnthropic = try await gw.post("/v1/messages", #"{"model":"gem","max_tokens":50,"top_k":12,"messages":[{"role":"user","content":"hi"}]}"#)
        #expect(fromAnthropic.status == 200, "\(fromAnthropic.json)")
        let second = try #require(upstreams.gemini.requests.last?.json?["generationConfig"] as? [String: Any])
        #expect(second["topK"] as? Int == 12)
        await gw.stop()
        await upstreams.stop()
    }

    @Test func anAnthropicProviderGetsTopKAndNothingItDoesNotKnow() async throws {
        let upstreams = try Upstreams()
        let gw = try Gateway(upstreams)
        let r = try await gw.post("/v1/chat/completions", #"{"model":"strong","max_tokens":50,"messages":[{"role":"user","content":"hi"}],\#(Self.controls)}"#)
        #expect(r.status == 200, "\(r.json)")
        let sent = try #require(upstreams.anthropic.requests.last?.json)
        for key in ["seed", "frequency_penalty", "presence_penalty", "logit_bias", "top_k"] { #expect(sent[key] == nil, "\(key)") }
        let fromAnthropic = try await gw.post("/v1/messages", #"{"model":"strong","max_tokens":50,"top_k":3,"messages":[{"role":"user","content":"hi"}]}"#)
        #expect(fromAnthropic.status == 200, "\(fromAnthropic.json)")
        #expect(upstreams.anthropic.requests.last?.json?["top_k"] as? Int == 3)
        await gw.stop()
        await upstreams.stop()
    }

    @Test(arguments: [#""logprobs":true"#, #""top_logprobs":3"#])
    func logprobsAreRefusedBeforeAnyProviderIsCalled(_ member: String) async throws {
        let upstreams = try Upstreams()
        let gw = try Gateway(upstreams)
        let r = try await gw.post("/v1/chat/completions", #"{"model":"light","messages":[{"role":"user","content":"hi"}],\#(member)}"#)
        #expect(r.status == 400)
        #expect(r.json["error"]?["type"] == "invalid_request_error")
        #expect(r.json["error"]?["message"]?.stringValue?.contains("does not return token log probabilities") == true)
        #expect(upstreams.requestCount == 0)
        await gw.stop()
        await upstreams.stop()
    }
}
