import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

/// The library example of README.md ("From Swift (a server, ...)"), compiled here. The test below
/// checks that the README shows exactly these lines, so the documented snippet always compiles.
func readmeSnippet(apiKey: String) async throws {
    // README-SNIPPET-BEGIN
    let catalog = try ProviderCatalog.load(directory: "Providers")
    let (provider, model) = catalog.resolve("openai/gpt-6-luna")!
    let deployment = Deployment(providerId: provider.id, model: model.id, baseURL: provider.baseURL,
                                auth: provider.auth, apiKey: apiKey, extraHeaders: provider.headers)
    let client = HTTPLLMClient(format: OpenAIChatFormat(), deployment: deployment, http: HTTPClient())
    let weather = ToolDefinition(name: "get_weather", description: "Current weather for a city",
                                 parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])
    let request = ChatRequest(model: model.id, messages: [Message(role: .user, text: "Weather in Zurich?")], tools: [weather])
    for try await event in client.stream(request) {
        if case .textDelta(let text) = event { print(text, terminator: "") }
        if case .toolCallStart(_, _, let name) = event { print("calls \(name)") }
    }
    // README-SNIPPET-END
}

@Suite struct ReadmeSnippetTests {
    @Test func readmeShowsTheCompiledSnippet() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let begin = try #require(source.range(of: "// README-SNIPPET-BEGIN\n"))
        let end = try #require(source.range(of: "    // README-SNIPPET-END"))
        let snippet = source[begin.upperBound..<end.lowerBound].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let readmePath = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md").path
        let readme = try String(contentsOfFile: readmePath, encoding: .utf8)
        let readmeLines = readme.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let start = try #require(readmeLines.firstIndex(of: snippet[0]), "README lacks the snippet's first line")
        #expect(Array(readmeLines[start..<min(readmeLines.count, start + snippet.count)]) == snippet)
    }
}
