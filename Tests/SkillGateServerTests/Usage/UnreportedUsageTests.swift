import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// An answer whose usage the provider left out, sent as `null`, or sent in a form that cannot be read (counts as text,
/// with a fraction) is charged an estimate from the request's input and the answer's content, and marked so (decision
/// 0146), whole or streamed. Before, a whole answer without usage cost nothing and counted no token, so every limit on
/// tokens and every budget was void behind a provider or proxy that leaves usage out; a stream's unreadable usage chunk
/// counted as a report of zero.
@Suite struct UnreportedUsageTests {
    /// The recorded answer (`Tests/Fixtures/openai/openai-text.json`: 1,842 bytes of text) with its `usage` replaced.
    static func answer(usage: String?) -> UpstreamDouble.Reply {
        var object = try! JSONValue.parse(OpenAIRecordings.bytes("openai-text.json")).objectValue!
        object["usage"] = nil
        var text = JSONValue.object(object).serialized()
        if let usage { text = String(text.dropLast()) + #","usage":\#(usage)}"# }
        return .json(status: 200, body: Array(text.utf8), headers: [:])
    }

    static let unreadable: [String?] = [nil, "null", #"{"prompt_tokens":"16","completion_tokens":"363"}"#,
                                       #"{"prompt_tokens":16.5,"completion_tokens":363.5}"#, #"{"total_tokens":379}"#]

    @Test(arguments: 0..<5)
    func aWholeAnswerWithoutReadableUsageIsChargedAnEstimate(_ index: Int) async throws {
        let upstream = try UpstreamDouble([Self.answer(usage: Self.unreadable[index])])
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"])
        let response = try await gateway.send(ResilienceGateway.body(model: "light"))
        let line = await gateway.logLines().first { ($0["path"] as? String) == "/v1/chat/completions" }
        await gateway.stop()
        await upstream.stop()
        #expect(response.status == 200)
        #expect(line?["usage_estimated"] as? Bool == true, "\(String(describing: line))")
        // The answer's 1,842 bytes at about four a token; the input, the small request's.
        let output = line?["output_tokens"] as? Int ?? 0, input = line?["input_tokens"] as? Int ?? 0
        #expect(output >= 400 && output <= 500, "\(String(describing: line))")
        #expect(input >= 1, "\(String(describing: line))")
    }

    @Test func aReportedUsageIsChargedAsReported() async throws {
        let upstream = try UpstreamDouble([Self.answer(usage: #"{"prompt_tokens":16,"completion_tokens":363,"total_tokens":379}"#)])
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"])
        _ = try await gateway.send(ResilienceGateway.body(model: "light"))
        let line = await gateway.logLines().first { ($0["path"] as? String) == "/v1/chat/completions" }
        await gateway.stop()
        await upstream.stop()
        #expect(line?["usage_estimated"] == nil && line?["output_tokens"] as? Int == 363 && line?["input_tokens"] as? Int == 16,
                "\(String(describing: line))")
    }

    @Test func aStreamWhoseUsageCannotBeReadIsChargedAnEstimate() async throws {
        let head = #"{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","#
        let sse = "data: " + head + #""choices":[{"index":0,"delta":{"role":"assistant","content":"\#(String(repeating: "word ", count: 80))"},"finish_reason":null}]}"# + "\n\n"
            + "data: " + head + #""choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\n"
            + "data: " + head + #""choices":[],"usage":{"prompt_tokens":"100","completion_tokens":"20000"}}"# + "\n\n"
            + "data: [DONE]\n\n"
        let upstream = try UpstreamDouble([.sse(Array(sse.utf8))])
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"])
        let (status, _) = try await gateway.stream(ResilienceGateway.body(model: "light", stream: true))
        let line = await gateway.logLines().first { ($0["path"] as? String) == "/v1/chat/completions" }
        await gateway.stop()
        await upstream.stop()
        #expect(status == 200)
        #expect(line?["usage_estimated"] as? Bool == true, "\(String(describing: line))")
        #expect((line?["output_tokens"] as? Int ?? 0) >= 90, "400 bytes of text relayed: \(String(describing: line))")
    }
}
