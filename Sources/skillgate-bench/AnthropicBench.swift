import Foundation
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

/// Maps the shared benchmark request to the Anthropic Messages body, and translates a recorded
/// Anthropic thinking stream; references in the same run: writing the parsed request.json
/// unchanged, and SSE decoding plus JSON parsing of the same stream without translation.
func runAnthropicBench() async throws {
    let format = AnthropicMessagesFormat()
    let request = try anthropicBenchChatRequest(try JSONValue.parse(try benchRequestBody()))
    let deployment = Deployment(providerId: "anthropic", model: "claude-sonnet-4-5", baseURL: "https://api.anthropic.com/v1",
                                auth: .xApiKey, apiKey: "sk-ant-bench", extraHeaders: ["anthropic-version": "2023-06-01"])
    let parsedInput = try JSONValue.parse(try benchRequestBody())
    let mapping = try measureMicros(iterations: 5000) {
        _ = try format.makeRequest(request, deployment: deployment, stream: true)
    }
    let writeOnly = measureMicros(iterations: 5000) { _ = parsedInput.serializedBytes() }
    report("map ChatRequest → anthropic HTTPRequest", mapping, unit: "µs", target: "target ≤ 50 µs")
    // The body alone, for the hand-mapped request (schemas as trees) and for the same request decoded from a client's
    // body (schemas kept as text, as the gateway has them; decision 0066), each beside the Chat Completions body.
    let decoded = try OpenAIChatFormat.decodeInboundRequest(try benchRequestBody()).request
    for (label, r) in [("  the body alone, schemas as trees", request), ("  the body alone, a decoded request", decoded)] {
        let anthropicBody = try measureCPUMicros(iterations: 5000) { _ = try format.wireBodyBytes(for: r, model: "claude-sonnet-4-5", stream: true) }
        let chatBody = measureCPUMicros(iterations: 5000) { _ = OpenAIChatFormat().requestBytes(r, model: "claude-sonnet-4-5", stream: true) }
        report(label, anthropicBody, unit: "µs CPU")
        report("    Chat body, same request (ref.)", chatBody, unit: "µs CPU")
    }
    report("write request.json as is (reference)", writeOnly, unit: "µs")

    // The inbound side: the same request as a client sends it to /v1/messages (the adapter's own wire body), decoded
    // with its tools read into trees, and with them taken from a warm tool-list cache (decision 0062).
    let inbound = try format.makeRequest(request, deployment: deployment, stream: false).body
    let tools = ToolListCache()
    _ = try AnthropicMessagesFormat.decodeInbound(inbound, toolCache: tools, scope: "bench")
    let decodeFresh = try measureCPUMicros(iterations: 2000) { _ = try AnthropicMessagesFormat.decodeInbound(inbound) }
    let decodeCached = try measureCPUMicros(iterations: 2000) {
        _ = try AnthropicMessagesFormat.decodeInbound(inbound, toolCache: tools, scope: "bench")
    }
    report("inbound decode (\(inbound.count) bytes, 3 tools)", decodeFresh, unit: "µs CPU")
    // The upstream bodies of the request as decoded from /v1/messages with its tools from the cache (their schemas kept
    // as text since decision 0068; trees before), each written on every turn.
    let viaMessages = try AnthropicMessagesFormat.decodeInbound(inbound, toolCache: tools, scope: "bench").request
    let anthropicUp = try measureCPUMicros(iterations: 5000) { _ = try format.wireBodyBytes(for: viaMessages, model: "claude-sonnet-4-5", stream: true) }
    let chatUp = measureCPUMicros(iterations: 5000) { _ = OpenAIChatFormat().requestBytes(viaMessages, model: "gpt", stream: true) }
    report("  that request's Anthropic upstream body", anthropicUp, unit: "µs CPU")
    report("  that request's Chat upstream body", chatUp, unit: "µs CPU")
    report("  tools from the tool-list cache", decodeCached, unit: "µs CPU")

    let chunks = try anthropicBenchStreamChunks()
    func translateAll() throws {
        var t = format.makeStreamTranslator(deployment: deployment)
        for chunk in chunks { _ = try t.feed(chunk) }
        _ = try t.finish()
    }
    let translate = try measureMicros(iterations: 200, translateAll)
    let translateCPU = try measureCPUMicros(iterations: 200, translateAll)
    let floor = try measureMicros(iterations: 200) {
        var sse = SSEDecoder()
        for chunk in chunks { for e in chunk.withUnsafeBytes({ sse.feed($0) }) { _ = try JSONValue.parse(e.data) } }
    }
    let sseArray = measureMicros(iterations: 200) {
        var sse = SSEDecoder()
        for chunk in chunks { _ = sse.feed(chunk) }
    }
    let sseBuffer = measureMicros(iterations: 200) {
        var sse = SSEDecoder()
        for chunk in chunks { _ = chunk.withUnsafeBytes { sse.feed($0) } }
    }
    let events = chunks.flatMap { chunk -> [String] in var d = SSEDecoder(); return (d.feed(chunk) + d.finish()).map(\.data) }
    let parseOnly = try measureMicros(iterations: 200) { for e in events { _ = try JSONValue.parse(e) } }
    report("  SSEDecoder only, generic [UInt8] feed", sseArray / Double(chunks.count), unit: "µs")
    report("  SSEDecoder only, buffer feed", sseBuffer / Double(chunks.count), unit: "µs")
    report("  JSON parse of event data only", parseOnly / Double(chunks.count), unit: "µs")
    report("stream translation per event (\(chunks.count))", translate / Double(chunks.count), unit: "µs", target: "target ≤ 5 µs")
    report("  same, thread CPU time", translateCPU / Double(chunks.count), unit: "µs CPU")
    report("SSE decode + JSON parse per event (ref.)", floor / Double(chunks.count), unit: "µs")

    // The way back to a /v1/messages client: the same stream's events encoded as Anthropic SSE (decision 0065), against
    // the Chat Completions stream encoder on the same events.
    var translator = format.makeStreamTranslator(deployment: deployment)
    var streamEvents: [ChatStreamEvent] = []
    for chunk in chunks { streamEvents += try translator.feed(chunk) }
    streamEvents += try translator.finish()
    let encodeAnthropic = measureCPUMicros(iterations: 500) {
        var encoder = AnthropicMessagesSSEEncoder(fallbackId: "msg_x", fallbackModel: "claude-sonnet-4-5")
        for event in streamEvents { _ = encoder.encode(event) }
        _ = encoder.finish()
    }
    let encodeChat = measureCPUMicros(iterations: 500) {
        var encoder = OpenAIChatStreamEncoder(id: "chatcmpl-x", model: "claude-sonnet-4-5", created: 1_767_225_600, includeUsage: true)
        for event in streamEvents { _ = encoder.encode(event) }
        _ = encoder.finish()
    }
    report("inbound SSE encoding per event (\(streamEvents.count))", encodeAnthropic / Double(streamEvents.count), unit: "µs CPU")
    // A recorded whole answer (thinking, text and a tool call) as a /v1/messages client gets it.
    let answer = try format.parseResponse(try Array(Data(contentsOf: URL(fileURLWithPath: FileManager.default.currentDirectoryPath
        + "/Tests/Fixtures/anthropic/test_anthropic_tool_with_thinking.0.response.json"))), deployment: deployment)
    let answerBody = measureCPUMicros(iterations: 5000) { _ = AnthropicMessagesFormat.inboundResponseBytes(answer) }
    report("  Chat encoder, same events (ref.)", encodeChat / Double(streamEvents.count), unit: "µs CPU")
    report("inbound answer body (recorded)", answerBody, unit: "µs CPU")
    let chatBody = measureCPUMicros(iterations: 5000) {
        _ = OpenAIChatFormat.encodeInboundResponseBytes(answer, id: "chatcmpl-x", model: "claude-sonnet-4-5", created: 1_767_225_600)
    }
    report("  Chat Completions body, same answer (ref.)", chatBody, unit: "µs CPU")
}

/// The recorded thinking stream split into one network chunk per SSE event.
private func anthropicBenchStreamChunks() throws -> [[UInt8]] {
    let path = ProcessInfo.processInfo.environment["SKILLGATE_BENCH_ANTHROPIC_SSE"]
        ?? FileManager.default.currentDirectoryPath + "/Tests/Fixtures/anthropic/test_anthropic_model_thinking_part_stream.0.response.sse"
    let text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
    return text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { Array(($0 + "\n\n").utf8) }
}

/// Hand-maps the OpenAI-shaped bench request (system/user/assistant string messages, function
/// tools, `tool_choice`, sampling, `max_tokens`, `user`) to a `ChatRequest`.
private func anthropicBenchChatRequest(_ json: JSONValue) throws -> ChatRequest {
    var messages: [Message] = []
    for m in json["messages"]?.arrayValue ?? [] {
        let role = Role(rawValue: m["role"]?.stringValue ?? "") ?? .user
        messages.append(Message(role: role, text: m["content"]?.stringValue ?? ""))
    }
    let tools = (json["tools"]?.arrayValue ?? []).compactMap { t -> ToolDefinition? in
        guard let f = t["function"], let name = f["name"]?.stringValue else { return nil }
        return ToolDefinition(name: name, description: f["description"]?.stringValue, parameters: f["parameters"] ?? [:])
    }
    var choice: ToolChoice?
    switch json["tool_choice"]?.stringValue {
    case "auto"?: choice = .auto
    case "none"?: choice = ToolChoice.none
    case "required"?: choice = .required
    default: choice = nil
    }
    guard messages.count == 3, tools.count == 3 else {
        throw GatewayError.internalError("bench request.json changed shape: \(messages.count) messages, \(tools.count) tools (expected 3 and 3)")
    }
    return ChatRequest(model: json["model"]?.stringValue ?? "", messages: messages, tools: tools, toolChoice: choice,
                       maxTokens: json["max_tokens"]?.intValue, temperature: json["temperature"]?.doubleValue,
                       user: json["user"]?.stringValue)
}
