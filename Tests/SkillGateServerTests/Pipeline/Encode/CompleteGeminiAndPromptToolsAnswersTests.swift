import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// A complete answer ends the client's stream normally, although the upstream keeps its stream open, for the two paths
/// decision 0154 left out (decision 0160): a Gemini upstream (its stream has no end event but the body's end; the finish
/// and the usage were handed on only then) and a text-only model behind the prompt-tools adapter (which read its inner
/// stream to its end). Both held the client until the upstream's idle or total timeout, then ended a complete answer with
/// a timeout error counted against the deployment.
@Suite struct CompleteGeminiAndPromptToolsAnswersTests {
    /// What the upstream sends before it stays open and silent until the gateway leaves.
    enum Upstream: CaseIterable, CustomTestStringConvertible {
        /// The recorded AI Studio stream `test_google_streaming_tool_call_thought_signature.1.response.sse`, byte for byte:
        /// two text chunks, then the `finishReason` chunk with `usageMetadata` (257 in, 8 out).
        case geminiText
        /// The recorded gemini-3-pro stream `google-text.chunks.txt` (each recorded chunk a `data:` event ended by CRLF
        /// CRLF, as Google sends them): its `finishReason` chunk carries the thought signature and the usage (9 in, 23 + 185
        /// thinking out).
        case geminiSignedText
        /// An OpenAI-format text-only model behind the prompt-tools adapter: role and text, then `finish_reason: stop`,
        /// no usage (with one, the relay's own completeness already ended the stream: decision 0154).
        case promptToolsWithoutUsage

        var testDescription: String { "\(self)" }

        var writes: [[UInt8]] {
            switch self {
            case .geminiText:
                return GatewayFailedAnswerTests.writes("test_google_streaming_tool_call_thought_signature.1.response.sse")
            case .geminiSignedText:
                let lines = String(decoding: GatewayFailedAnswerTests.fixture("google-text.chunks.txt"), as: UTF8.self).split(separator: "\n")
                return lines.map { Array("data: \($0)\r\n\r\n".utf8) }
            case .promptToolsWithoutUsage:
                let head = CompleteAnswerEndsTheStreamTests.head
                return [CompleteAnswerEndsTheStreamTests.chunk(head + #""choices":[{"index":0,"delta":{"role":"assistant","content":"Hello there"},"finish_reason":null}]}"#),
                        CompleteAnswerEndsTheStreamTests.chunk(head + #""choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#)].map { Array($0.utf8) }
            }
        }

        /// A text of the answer the client reads.
        var phrase: String {
            switch self {
            case .geminiText: "Mexico City."
            case .geminiSignedText: "strawberry"
            case .promptToolsWithoutUsage: "Hello there"
            }
        }

        /// The output tokens the provider reported, when it did.
        var outputTokens: Int? {
            switch self {
            case .geminiText: 8
            case .geminiSignedText: 23 + 185
            case .promptToolsWithoutUsage: nil
            }
        }

        var wireFormat: String { self == .promptToolsWithoutUsage ? "openai-chat" : "gemini" }
        var tools: String { self == .promptToolsWithoutUsage ? "prompt" : "native" }
    }

    @Test(arguments: Upstream.allCases, 0..<3)
    func aCompleteAnswerEndsTheClientsStreamNormally(_ upstreamKind: Upstream, _ surface: Int) async throws {
        let (path, body, end) = CompleteAnswerEndsTheStreamTests.surfaces[surface]
        let upstream = try UpstreamDouble([.sseThenOpen(upstreamKind.writes, atMost: .seconds(60))])
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"], idleSeconds: 90,
                                            wireFormats: ["up-a": upstreamKind.wireFormat], toolModes: ["up-a": upstreamKind.tools])
        let (seen, closed, took) = try await CompleteAnswerEndsTheStreamTests.streamOverRawSocket(gateway, path: path, body: body)
        // Unbounded, the stream ends with the total timeout (30 s) while the upstream is silent; bounded, after the usage's
        // hold (1 s) at most, or two without a usage behind the prompt-tools adapter. The bound is far from both, as a
        // loaded parallel run can take seconds over the request itself.
        let deadline = ContinuousClock.now + .seconds(20)
        while !upstream.sawDisconnect, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let sawDisconnect = upstream.sawDisconnect
        let line = await gateway.logLines().first { ($0["path"] as? String) == path }
        await gateway.stop()
        await upstream.stop()
        #expect(closed && took < .seconds(25), "the complete answer's stream ended after \(took)")
        #expect(seen.contains(upstreamKind.phrase) && seen.contains(end), "\(seen.suffix(600))")
        #expect(!seen.contains(#""error":{"#) && !seen.contains("event: error"), "a complete answer ended with an error: \(seen.suffix(600))")
        #expect(sawDisconnect, "the upstream's open stream was not let go of")
        #expect(line?["status"] as? Int == 200 && line?["error"] == nil && line?["level"] as? String == "info", "\(String(describing: line))")
        let attempts = (line?["attempts"] as? [String])?.joined(separator: "; ") ?? ""
        #expect(attempts == "up-a/m: 200 ok", "the attempt should be a success, not a failure mid-stream: \(attempts)")
        if let output = upstreamKind.outputTokens {
            #expect(line?["output_tokens"] as? Int == output && line?["usage_estimated"] == nil, "\(String(describing: line))")
        }
    }

    /// Behind the prompt-tools adapter, a stream read whole before it is relayed (a model whose answers escalate) and an
    /// agent run's model call end with the complete answer too, when the upstream sends no usage and keeps its stream open.
    @Test(arguments: [("/v1/chat/completions", true), ("/v1/agent", false)])
    func aPromptToolsAnswerReadWholeOrByAnAgentRunEndsWithTheAnswer(_ path: String, _ escalate: Bool) async throws {
        let upstream = AgentUpstream(tool: "none", openAfterAnswer: "Hello there", openAfterAnswerUsage: false)
        let h = try AgentGatewayHarness(skills: [], upstream: upstream, lightTools: "prompt", escalate: escalate)
        let (headers, line) = try await CompleteAnswerEndsTheStreamTests.expectTheAnswerEndsTheRun(h, path: path)
        if escalate {
            #expect(headers["x-skillgate-model"] == "up/light-native" && line?["escalations"] == nil, "\(headers) \(String(describing: line))")
        }
    }
}
