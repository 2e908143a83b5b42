import Foundation
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
import SkillGateSkills

/// Gemini wire format: mapping the shared benchmark request to a `generateContent` body
/// (target ≤ 50 µs) and translating a recorded stream (target ≤ 5 µs per chunk). References in
/// the same run: writing the original OpenAI body with the same JSON writer, and SSE decoding alone.
func runGeminiBench() async throws {
    let body = try benchRequestBody()
    let openAI = try JSONValue.parse(body)
    let request = try benchChatRequest(openAI)
    let deployment = Deployment(providerId: "gemini", model: "gemini-2.5-flash",
                                baseURL: "https://generativelanguage.googleapis.com/v1beta", auth: .xGoogApiKey, apiKey: "bench-key")
    let format = GeminiFormat()
    print("  (wall µs, then thread CPU µs: on a loaded machine the CPU figure is the fairer one)")
    let map = try measureMicros(iterations: 5000) { _ = try format.makeRequest(request, deployment: deployment, stream: true) }
    let mapCPU = try measureCPUMicros(iterations: 5000) { _ = try format.makeRequest(request, deployment: deployment, stream: true) }
    let write = measureMicros(iterations: 5000) { _ = openAI.serializedBytes() }
    let writeCPU = measureCPUMicros(iterations: 5000) { _ = openAI.serializedBytes() }
    report("ChatRequest → gemini HTTP request (body+URL)", map, unit: "µs", target: "target ≤ 50 µs")
    report("  same, thread CPU time", mapCPU, unit: "µs CPU")
    report("write request.json as is (reference)", write, unit: "µs")
    report("  same, thread CPU time", writeCPU, unit: "µs CPU")
    let sanitize = measureMicros(iterations: 5000) { for t in request.tools { _ = GeminiSchemaSanitizer.sanitize(t.parameters) } }
    report("  of which: sanitising the 3 tool schemas", sanitize, unit: "µs")
    // The body alone, for the hand-mapped request (schemas as trees) and for the same request decoded from a client's
    // body (schemas kept as text, as the gateway has them), each beside the Chat Completions body of the same request.
    let decoded = try OpenAIChatFormat.decodeInboundRequest(body).request
    for (label, r) in [("  the body alone, schemas as trees", request), ("  the body alone, a decoded request", decoded)] {
        let geminiBody = try measureCPUMicros(iterations: 5000) { _ = try GeminiFormat.requestBodyBytes(r, model: "gemini-2.5-flash") }
        let chatBody = measureCPUMicros(iterations: 5000) { _ = OpenAIChatFormat().requestBytes(r, model: "gemini-2.5-flash", stream: true) }
        report(label, geminiBody, unit: "µs CPU")
        report("    Chat body, same request (ref.)", chatBody, unit: "µs CPU")
    }
    // Server-side skills as the skill policy adds them to every request (an agent's every step): the skill's own
    // definition made per request (schemas as trees, sanitised on every Gemini body) against the registry's, made once
    // with their schemas kept as text (decision 0070).
    let skills: [any Skill] = request.tools.map { BenchSkill(name: $0.name, description: $0.description ?? "", parameters: $0.parameters) }
    let registry = try SkillRegistry(skills)
    for (label, definitions) in [("  server-side skills, defined per request", { skills.map(\.toolDefinition) }),
                                 ("  server-side skills, from the registry", { registry.registered.map(\.definition) })] {
        var r = request
        let geminiBody = try measureCPUMicros(iterations: 5000) {
            r.tools = definitions()
            _ = try GeminiFormat.requestBodyBytes(r, model: "gemini-2.5-flash")
        }
        let chatBody = measureCPUMicros(iterations: 5000) {
            r.tools = definitions()
            _ = OpenAIChatFormat().requestBytes(r, model: "gemini-2.5-flash", stream: true)
        }
        report(label, geminiBody, unit: "µs CPU")
        report("    Chat body, same request", chatBody, unit: "µs CPU")
    }
    // A request whose tools do not come from the tool-list cache: its schemas are sanitised on its first body.
    let decodeOnly = try measureCPUMicros(iterations: 2000) { _ = try OpenAIChatFormat.decodeInboundRequest(body) }
    let decodeAndBody = try measureCPUMicros(iterations: 2000) {
        _ = try GeminiFormat.requestBodyBytes(try OpenAIChatFormat.decodeInboundRequest(body).request, model: "gemini-2.5-flash")
    }
    report("  decoded afresh, then the body", decodeAndBody, unit: "µs CPU")
    report("    the decoding alone (ref.)", decodeOnly, unit: "µs CPU")

    for file in ["test_google_streaming_tool_call_thought_signature.1.response.sse", "google-stream-no-args-tool-call.chunks.txt",
                 "googleai-streaming-success-thinking-function-call-thought-summary-signature.txt"] {
        let chunks = try recordedGeminiChunks(file)
        let perStream = try measureMicros(iterations: 500) {
            var t = format.makeStreamTranslator(deployment: deployment)
            for chunk in chunks { _ = try t.feed(chunk) }
            _ = try t.finish()
        }
        let perStreamCPU = try measureCPUMicros(iterations: 500) {
            var t = format.makeStreamTranslator(deployment: deployment)
            for chunk in chunks { _ = try t.feed(chunk) }
            _ = try t.finish()
        }
        let sseOnly = measureCPUMicros(iterations: 500) {
            var d = SSEDecoder()
            for chunk in chunks { _ = chunk.withUnsafeBytes { d.feed($0) } }
            _ = d.finish()
        }
        let payloads = chunks.map { String(decoding: $0, as: UTF8.self).dropFirst(6) }.map { Array($0.utf8) }
        let parseOnly = try measureCPUMicros(iterations: 500) { for p in payloads { _ = try JSONValue.parse(p) } }
        let bytes = chunks.reduce(0) { $0 + $1.count }
        print("  \(file): \(chunks.count) chunks, \(bytes) bytes")
        report("  stream translation per chunk", perStream / Double(chunks.count), unit: "µs", target: "target ≤ 5 µs")
        report("    same, thread CPU time", perStreamCPU / Double(chunks.count), unit: "µs CPU")
        report("  SSE decoding alone per chunk (reference)", sseOnly / Double(chunks.count), unit: "µs CPU")
        report("  JSON parse of the payload alone (reference)", parseOnly / Double(chunks.count), unit: "µs CPU")
    }
}

/// The benchmark request (OpenAI chat shape) hand-mapped to a `ChatRequest`.
private func benchChatRequest(_ json: JSONValue) throws -> ChatRequest {
    var messages: [Message] = []
    for m in json["messages"]?.arrayValue ?? [] {
        let role = Role(rawValue: m["role"]?.stringValue ?? "") ?? .user
        messages.append(Message(role: role, text: m["content"]?.stringValue ?? ""))
    }
    let tools = (json["tools"]?.arrayValue ?? []).compactMap { tool -> ToolDefinition? in
        guard let f = tool["function"], let name = f["name"]?.stringValue else { return nil }
        return ToolDefinition(name: name, description: f["description"]?.stringValue,
                              parameters: f["parameters"] ?? ["type": "object", "properties": [:]])
    }
    let choice: ToolChoice? = json["tool_choice"]?.stringValue == "auto" ? .auto : nil
    return ChatRequest(model: json["model"]?.stringValue ?? "", messages: messages, tools: tools, toolChoice: choice,
                       maxTokens: json["max_tokens"]?.intValue, temperature: json["temperature"]?.doubleValue,
                       user: json["user"]?.stringValue)
}

/// A server-side skill with the bench request's tool definitions; never run.
private struct BenchSkill: Skill {
    let name: String
    let description: String
    let parameters: JSONValue
    var id: String { "bench.\(name)" }
    var version: String { "1" }
    var timeout: Duration { .seconds(1) }
    var requiresConfirmation: Bool { false }

    func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult { SkillResult(text: "") }
}

/// A recorded Gemini stream split into its SSE events' bytes, as they would arrive from the network.
private func recordedGeminiChunks(_ file: String) throws -> [[UInt8]] {
    let path = FileManager.default.currentDirectoryPath + "/Tests/Fixtures/gemini/" + file
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    if file.hasSuffix(".chunks.txt") {
        return text.split(separator: "\n").map { Array("data: \($0)\n\n".utf8) }
    }
    return text.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }.map { Array(($0 + "\r\n\r\n").utf8) }
}

