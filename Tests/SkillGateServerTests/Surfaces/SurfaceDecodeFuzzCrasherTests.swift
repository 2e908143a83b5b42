import Testing
import SkillGateTestSupport
import SkillGateCore
@testable import SkillGateProviders
@testable import SkillGateServer

/// The `inbound` fuzzing target's crashers (Fuzz/crashers/inbound/): the first byte picks the
/// surface (OpenAI chat, Anthropic messages, agent), the rest is the body. Decoding returns or
/// throws, and an accepted request renders into every upstream format without crashing.
@Suite struct SurfaceDecodeFuzzCrasherTests {
    static let surfaces: [any Surface] = [OpenAIChatSurface(), AnthropicMessagesSurface(), AgentSurface()]

    @Test(arguments: FuzzCrashers.names("inbound"))
    func decodesOrRefuses(_ name: String) throws {
        let data = try FuzzCrashers.bytes("inbound", name)
        guard let selector = data.first else { return }
        guard let decoded = try? Self.surfaces[Int(selector) % Self.surfaces.count].decode(Array(data.dropFirst())) else { return }
        let deployment = Deployment(providerId: "fuzz", model: "m", baseURL: "http://127.0.0.1:9", auth: .bearer, apiKey: "k")
        for stream in [false, true] {
            _ = try? OpenAIChatFormat().makeRequest(decoded.chat, deployment: deployment, stream: stream)
            _ = try? AnthropicMessagesFormat().makeRequest(decoded.chat, deployment: deployment, stream: stream)
            _ = try? GeminiFormat().makeRequest(decoded.chat, deployment: deployment, stream: stream)
        }
        _ = try? PromptToolsRenderer.prepare(decoded.chat)
    }
}
