import Testing
import SkillGateTestSupport
import SkillGateCore
@testable import SkillGateProviders

/// Mangled Responses bodies (truncated, bytes replaced, items swapped for other JSON values) decode or
/// throw a `GatewayError`, and what decodes renders into every upstream format: never a crash.
@Suite struct ResponsesDecodeRobustnessTests {
    static let body = Array(#"""
    {"model":"m","instructions":"Be brief.","input":[{"role":"user","content":[{"type":"input_text","text":"Hi"},{"type":"input_image","image_url":"data:image/png;base64,AA=="}]},
     {"type":"reasoning","summary":[{"type":"summary_text","text":"t"}],"encrypted_content":"redacted:x"},
     {"type":"function_call","call_id":"c","name":"f","arguments":"{\"a\":1}"},{"type":"function_call_output","call_id":"c","output":"ok"}],
     "tools":[{"type":"function","name":"f","parameters":{"type":"object"}}],"tool_choice":{"type":"function","name":"f"},
     "text":{"format":{"type":"json_schema","name":"n","schema":{"type":"object"}}},"reasoning":{"effort":"low"},"max_output_tokens":9}
    """#.utf8)

    @Test func mangledBodiesDecodeOrThrowAndRender() throws {
        #expect(throws: Never.self) { _ = try OpenAIResponsesFormat.decodeInboundRequest(Self.body) }
        var rng = SplitMix(seed: 28)
        let pieces: [[UInt8]] = ["null", "[]", "{}", "\"x\"", "1e999", "-0", "[[[[", "{\"type\":\"message\"}", "\"\\ud800\""].map { Array($0.utf8) }
        let deployment = Deployment(providerId: "p", model: "m", baseURL: "http://127.0.0.1:9", auth: .bearer, apiKey: "k")
        var decoded = 0
        for _ in 0..<3000 {
            var bytes = Self.body
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
            case 1:
                for _ in 0..<Int.random(in: 1...4, using: &rng) { bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            default:
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                let end = min(bytes.count, at + Int.random(in: 0...20, using: &rng))
                bytes.replaceSubrange(at..<end, with: pieces.randomElement(using: &rng)!)
            }
            do {
                let request = try OpenAIResponsesFormat.decodeInboundRequest(bytes)
                decoded += 1
                if let raw = request.echo.toolsBytes { #expect((try? JSONValue.parse(raw)) == request.echo.tools) }
                for stream in [false, true] {
                    _ = try? OpenAIChatFormat().makeRequest(request.request, deployment: deployment, stream: stream)
                    _ = try? AnthropicMessagesFormat().makeRequest(request.request, deployment: deployment, stream: stream)
                    _ = try? GeminiFormat().makeRequest(request.request, deployment: deployment, stream: stream)
                }
                // The stored form of whatever decoded: the tree's bytes, and readable again.
                let stored = OpenAIResponsesFormat.conversationJSON(request.request.messages)
                #expect(stored == ResponsesStoredConversationTests.referenceItems(request.request.messages).serializedBytes())
                #expect((try? OpenAIResponsesFormat.conversation(fromItems: JSONValue.parse(stored).arrayValue ?? [])) != nil)
            } catch let e as GatewayError {
                #expect(e.status == 400 && !e.message.isEmpty)
            }
        }
        #expect(decoded > 0)  // some mangled bodies are still valid requests
    }
}
