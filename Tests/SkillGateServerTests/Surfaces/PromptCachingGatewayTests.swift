import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
@testable import SkillGateServer
import SkillGateTestSupport

/// Prompt caching through the real gateway: breakpoints reach an Anthropic-format provider (the client's own
/// from the Anthropic surface, placed ones from the OpenAI surface when asked), `prompt_cache_key` reaches an
/// OpenAI-format provider, and cached input tokens come back in each surface's usage and are priced with the
/// catalog's cached price.
@Suite(.serialized) struct PromptCachingGatewayTests {
    /// The recorded Anthropic answer (`Tests/Fixtures/anthropic/anthropic-text.json`) with its usage counters
    /// changed to a cache hit of 2,048 tokens; every other byte is the recording's.
    static var cacheHit: UpstreamDouble.Reply {
        let url = OpenAIRecordings.root.deletingLastPathComponent().appendingPathComponent("anthropic/anthropic-text.json")
        let text = ((try? String(contentsOf: url, encoding: .utf8)) ?? "")
            .replacingOccurrences(of: #""cache_read_input_tokens": 0"#, with: #""cache_read_input_tokens": 2048"#)
        return .json(status: 200, body: Array(text.utf8), headers: [:])
    }

    final class Gateway: Sendable {
        let directory: String
        let server: GatewayServer
        let token: String
        let http = HTTPClient()
        let logPath: String
        private let logFD: Int32

        init(anthropic: String, openAI: String, promptCaching: String = "") throws {
            directory = NSTemporaryDirectory() + "skillgate-cache-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory + "/providers", withIntermediateDirectories: true)
            let anth = #"{"id":"anth","display_name":"anth","wire_format":"anthropic-messages","base_url":"\#(anthropic)","auth":"x-api-key","key_name":"ANTH_KEY","models":[{"id":"claude-test","tier":"strong","context_window":200000,"tools":"native","price":{"input_per_mtok":2.0,"output_per_mtok":10.0,"cached_input_per_mtok":0.1,"cache_write_per_mtok":2.5}}]}"#
            let oai = #"{"id":"oai","display_name":"oai","wire_format":"openai-chat","base_url":"\#(openAI)","auth":"none","models":[{"id":"gpt-test","tier":"light","context_window":8000,"tools":"native"}]}"#
            try anth.writeAtomically(toFile: directory + "/providers/anth.json")
            try oai.writeAtomically(toFile: directory + "/providers/oai.json")
            let config = #"""
            {"listen":"127.0.0.1:0","state_dir":"state","providers_dir":"providers",
             "tiers":{"light":["oai/gpt-test"],"strong":["anth/claude-test"]},"default_model":"strong"\#(promptCaching)}
            """#
            try config.writeAtomically(toFile: directory + "/skillgate.json")
            let loaded = try GatewayConfig.load(path: directory + "/skillgate.json")
            try KeyStore(path: loaded.keyFile).set("ANTH_KEY", secret: "sk-ant-cache-test-0123456789")
            token = try GatewayServer.openTokenService(config: loaded).create(name: "cache-test").token
            logPath = directory + "/gateway.log"
            logFD = open(logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            server = try GatewayServer(config: loaded, logFD: logFD)
            try server.start()
        }

        func post(_ path: String, _ body: String, headers: HTTPHeaders = [:]) async throws -> (status: Int, json: JSONValue) {
            var all: HTTPHeaders = ["authorization": "Bearer \(token)", "content-type": "application/json", "anthropic-version": "2023-06-01"]
            for field in headers { all.set(field.name, field.value) }
            let r = try await http.send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(server.boundPort)\(path)", headers: all, body: Array(body.utf8)))
            return (r.status, (try? JSONValue.parse(r.body)) ?? .null)
        }

        func lastLogLine() async -> JSONValue? {
            await server.flushLog()
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }.last { $0["request_id"] != nil }
        }

        func stop() async {
            await server.shutdown()
            http.shutdown()
            close(logFD)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    static let tools = #"[{"type":"function","function":{"name":"lookup","parameters":{"type":"object"}}},{"type":"function","function":{"name":"book","parameters":{"type":"object"}}}]"#
    static let openAIBody = #"{"model":"strong","messages":[{"role":"system","content":"You book trips."},{"role":"user","content":"hi"}],"tools":\#(tools)}"#

    @Test func anthropicClientsBreakpointsAndCachedUsageSurviveTheRoundTrip() async throws {
        let anthropic = try UpstreamDouble([Self.cacheHit])
        let openAI = try UpstreamDouble([OpenAIRecordings.text])
        let gw = try Gateway(anthropic: anthropic.baseURL, openAI: openAI.baseURL)
        let body = #"{"model":"strong","max_tokens":100,"system":[{"type":"text","text":"Policy.","cache_control":{"type":"ephemeral"}}],"#
            + #""tools":[{"name":"lookup","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral","ttl":"1h"}}],"messages":[{"role":"user","content":"hi"}]}"#
        let r = try await gw.post("/v1/messages", body)
        #expect(r.status == 200)
        let sent = try #require(anthropic.requests.last?.json)
        let system = sent["system"] as? [[String: Any]]
        #expect((system?.first?["cache_control"] as? [String: String]) == ["type": "ephemeral"])
        let tools = sent["tools"] as? [[String: Any]]
        #expect((tools?.first?["cache_control"] as? [String: String]) == ["type": "ephemeral", "ttl": "1h"])
        #expect(r.json["usage"]?["cache_read_input_tokens"] == 2048)
        #expect(r.json["usage"]?["input_tokens"] == 12, "Anthropic's input_tokens counts only the uncached part")
        let line = try #require(await gw.lastLogLine())
        #expect(line["cached_input_tokens"] == 2048 && line["input_tokens"] == 2060)
        // 12 fresh at $2, 2,048 cached at $0.10, 29 output at $10 per million.
        let expected = (12 * 2.0 + 2048 * 0.1 + 29 * 10.0) / 1_000_000
        #expect(abs((line["cost_usd"]?.doubleValue ?? 0) - expected) < 1e-8, "\(String(describing: line["cost_usd"]))")
        await gw.stop()
        await anthropic.stop()
        await openAI.stop()
    }

    @Test(arguments: [("header", ""), ("config", #","prompt_caching":{"breakpoints":"prefix"}"#)])
    func openAIClientsGetBreakpointsOnTheStablePrefixWhenAsked(source: String, config: String) async throws {
        let anthropic = try UpstreamDouble([Self.cacheHit])
        let openAI = try UpstreamDouble([OpenAIRecordings.text])
        let gw = try Gateway(anthropic: anthropic.baseURL, openAI: openAI.baseURL, promptCaching: config)
        let headers: HTTPHeaders = source == "header" ? ["x-skillgate-cache-breakpoints": "prefix"] : [:]
        let r = try await gw.post("/v1/chat/completions", Self.openAIBody, headers: headers)
        #expect(r.status == 200)
        let sent = try #require(anthropic.requests.last?.json)
        let system = sent["system"] as? [[String: Any]]
        #expect((system?.last?["cache_control"] as? [String: String]) == ["type": "ephemeral"], "\(String(describing: sent["system"]))")
        let tools = try #require(sent["tools"] as? [[String: Any]])
        #expect(tools.map { $0["name"] as? String } == ["lookup", "book"], "the client's tool order is kept")
        #expect(tools[0]["cache_control"] == nil && (tools[1]["cache_control"] as? [String: String]) == ["type": "ephemeral"])
        #expect(r.json["usage"]?["prompt_tokens"] == 2060)
        #expect(r.json["usage"]?["prompt_tokens_details"]?["cached_tokens"] == 2048)
        await gw.stop()
        await anthropic.stop()
        await openAI.stop()
    }

    @Test func withoutTheOptionNothingIsMarkedAndABadHeaderIsA400() async throws {
        let anthropic = try UpstreamDouble([Self.cacheHit])
        let openAI = try UpstreamDouble([OpenAIRecordings.text])
        let gw = try Gateway(anthropic: anthropic.baseURL, openAI: openAI.baseURL)
        let r = try await gw.post("/v1/chat/completions", Self.openAIBody)
        #expect(r.status == 200)
        let sentText = String(decoding: anthropic.requests.last?.body ?? [], as: UTF8.self)
        #expect(!sentText.isEmpty && !sentText.contains("cache_control"))
        let bad = try await gw.post("/v1/chat/completions", Self.openAIBody, headers: ["x-skillgate-cache-breakpoints": "always"])
        #expect(bad.status == 400)
        #expect(bad.json["error"]?["param"] == "x-skillgate-cache-breakpoints")
        #expect(bad.json["error"]?["message"]?.stringValue?.contains("\"prefix\"") == true)
        #expect(anthropic.requestCount == 1, "refused before any upstream call")
        await gw.stop()
        await anthropic.stop()
        await openAI.stop()
    }

    /// One `tools` array that is valid in both shapes and names other tools in each, sent by one caller through both
    /// surfaces, twice each: every request reaches the provider with its own surface's tools, though each surface's
    /// second request takes the list from the checked tool-list cache (decision 0062: a scope per surface).
    @Test func eachSurfaceKeepsItsOwnToolListsForOneCaller() async throws {
        let anthropic = try UpstreamDouble([Self.cacheHit])
        let openAI = try UpstreamDouble([OpenAIRecordings.text])
        let gw = try Gateway(anthropic: anthropic.baseURL, openAI: openAI.baseURL)
        let shared = #"[{"function":{"name":"openai_name","parameters":{"type":"object"}},"name":"anthropic_name","input_schema":{"type":"object"}}]"#
        let openAIBody = #"{"model":"strong","messages":[{"role":"user","content":"hi"}],"tools":\#(shared)}"#
        let anthropicBody = #"{"model":"strong","max_tokens":100,"messages":[{"role":"user","content":"hi"}],"tools":\#(shared)}"#
        var sentTools: [[String]] = []
        for (path, body) in [("/v1/chat/completions", openAIBody), ("/v1/messages", anthropicBody),
                             ("/v1/chat/completions", openAIBody), ("/v1/messages", anthropicBody)] {
            let r = try await gw.post(path, body)
            #expect(r.status == 200, "\(path): \(r.json)")
            let sent = try #require(anthropic.requests.last?.json)
            sentTools.append(((sent["tools"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String })
        }
        #expect(sentTools == [["openai_name"], ["anthropic_name"], ["openai_name"], ["anthropic_name"]])
        let lookups = gw.server.services.toolLists.statistics
        #expect(lookups.hits == 2 && lookups.entries == 2, "\(lookups)")
        await gw.stop()
        await anthropic.stop()
        await openAI.stop()
    }

    @Test func promptCacheKeyReachesAnOpenAIFormatProvider() async throws {
        let anthropic = try UpstreamDouble([Self.cacheHit])
        let openAI = try UpstreamDouble([OpenAIRecordings.text])
        let gw = try Gateway(anthropic: anthropic.baseURL, openAI: openAI.baseURL)
        let r = try await gw.post("/v1/chat/completions", #"{"model":"light","messages":[{"role":"user","content":"hi"}],"prompt_cache_key":"trip-agent-v2"}"#)
        #expect(r.status == 200)
        #expect(openAI.requests.last?.json?["prompt_cache_key"] as? String == "trip-agent-v2")
        await gw.stop()
        await anthropic.stop()
        await openAI.stop()
    }
}
