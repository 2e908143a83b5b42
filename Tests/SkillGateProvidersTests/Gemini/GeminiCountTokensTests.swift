import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// Gemini's count (decision 0136): `{base}/models/{model}:countTokens` with the `generateContentRequest` form, whose count
/// includes the system instruction and the tools, holding the model's resource name and the members of the
/// `generateContent` body that make the input (not `generationConfig`).
@Suite struct GeminiCountTokensTests {
    static let request: ChatRequest = {
        var r = ChatRequest(model: "light", messages: [Message(role: .system, text: "Be brief."), Message(role: .user, text: "Weather in Paris?")],
                            tools: [ToolDefinition(name: "weather", description: "Current weather", parameters: ["type": "object", "properties": ["city": ["type": "string"]]])],
                            toolChoice: .required, maxTokens: 100, temperature: 0.5)
        r.topK = 3
        return r
    }()

    static func deployment(model: String = "gemini-2.5-flash", counts: Bool = true) -> Deployment {
        var d = GeminiTest.deployment
        d.model = model
        d.countsInputTokens = counts
        return d
    }

    @Test func theCountHoldsTheInputOfTheGenerateContentBody() throws {
        let asked = try #require(try GeminiFormat().makeCountTokensRequest(Self.request, deployment: Self.deployment()))
        #expect(asked.method == "POST" && asked.url == "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens")
        #expect(asked.headers["x-goog-api-key"] == "AIza-test-secret-key-1234" && !asked.url.contains("AIza"))
        let body = try JSONValue.parse(asked.body)
        let generated = try GeminiFormat.requestBody(Self.request, model: "gemini-2.5-flash")
        #expect(body.objectValue?.members.map(\.key) == ["generateContentRequest"])
        let inner = try #require(body["generateContentRequest"])
        #expect(inner.objectValue?.members.map(\.key) == ["model", "contents", "systemInstruction", "tools", "toolConfig"], "\(inner)")
        #expect(inner["model"] == "models/gemini-2.5-flash")
        for key in GeminiFormat.countedMembers { #expect(inner[key] == generated[key], "\(key)") }
        #expect(generated["generationConfig"] != nil && inner["generationConfig"] == nil, "only what makes the input")
    }

    @Test(arguments: [("models/gemini-2.5-pro", "models/gemini-2.5-pro"), ("tunedModels/my-model-1", "tunedModels/my-model-1")])
    func theResourceNameIsTheURLs(_ model: String, _ name: String) throws {
        let asked = try #require(try GeminiFormat().makeCountTokensRequest(Self.request, deployment: Self.deployment(model: model)))
        #expect(asked.url == "https://generativelanguage.googleapis.com/v1beta/\(name):countTokens")
        #expect(try JSONValue.parse(asked.body)["generateContentRequest"]?["model"] == .string(name))
    }

    @Test func aDeploymentThatDoesNotCountIsNotAsked() throws {
        #expect(try GeminiFormat().makeCountTokensRequest(Self.request, deployment: Self.deployment(counts: false)) == nil)
    }

    @Test(arguments: [(#"{"totalTokens":31,"promptTokensDetails":[{"modality":"TEXT","tokenCount":31}]}"#, 31), (#"{"input_tokens":31}"#, nil),
                      (#"{"totalTokens":"31"}"#, nil)] as [(String, Int?)])
    func theCountIsRead(_ body: String, _ expected: Int?) {
        #expect(GeminiFormat().parseCountTokens(Array(body.utf8)) == expected)
    }
}
