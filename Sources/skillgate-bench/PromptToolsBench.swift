import Foundation
import SkillGateCore
import SkillGateProviders

/// The prompt-tools adapter: the streaming tool-call parser per text delta, and rendering tools
/// into the system prompt. References in the same run: appending the deltas to a String and
/// searching it for the tag (the naive parser's floor), and serialising the tools as JSON.
func runPromptToolsBench() async throws {
    let text = """
        Sure — I'll check both for you. First the weather in Zürich, then the time there, so you \
        can plan the trip (a < b holds, and `code` stays text).
        <tool_call>
        {"name": "get_weather", "arguments": {"city": "Zürich", "unit": "celsius", "note": "braces {} in a string"}}
        </tool_call>
        <tool_call>
        {"name": "current_time", "arguments": {"timezone": "Europe/Zurich"}}
        </tool_call>
        """
    let chunks = tokenLikeChunks(text, size: 4)
    let offered = ["get_weather", "current_time", "calculator"]
    var calls = 0
    let perAnswer = try measureMicros(iterations: 2000) {
        var parser = PromptToolStreamParser(offeredTools: offered, idPrefix: "call_b_")
        for chunk in chunks { _ = try parser.feed(chunk) }
        _ = try parser.finish()
        calls = parser.callCount
    }
    precondition(calls == 2, "the benchmark text must hold two calls")
    let reference = measureMicros(iterations: 2000) {
        var s = ""
        var found = false
        for chunk in chunks { s += chunk; found = found || s.contains("<tool_call>") }
        precondition(found)
    }
    report("stream parser, per text delta (\(chunks.count) deltas)", perAnswer / Double(chunks.count), unit: "µs", target: "≤ 5 µs")
    report("append + contains per delta (reference)", reference / Double(chunks.count), unit: "µs")

    let tools = benchTools()
    let request = ChatRequest(model: "m", messages: [Message(role: .system, text: "You are a travel assistant."),
                                                     Message(role: .user, text: "Weather and time in Zürich?")], tools: tools)
    let client = PromptToolsClient(inner: DemoModelClient(chunkDelay: .zero))
    let render = try measureMicros(iterations: 2000) { _ = try client.innerRequest(for: request) }
    let serialise = measureMicros(iterations: 2000) { for t in tools { _ = t.parameters.serializedBytes() } }
    report("render 3 tools into the system prompt", render, unit: "µs")
    report("serialise the 3 tool schemas (reference)", serialise, unit: "µs")
}

/// `text` cut into pieces of `size` characters, like a model's token deltas.
private func tokenLikeChunks(_ text: String, size: Int) -> [String] {
    let characters = Array(text)
    return stride(from: 0, to: characters.count, by: size).map { String(characters[$0..<min($0 + size, characters.count)]) }
}

private func benchTools() -> [ToolDefinition] {
    [
        ToolDefinition(name: "get_weather", description: "Current weather for a city", parameters: [
            "type": "object",
            "properties": ["city": ["type": "string", "description": "City name"],
                           "unit": ["type": "string", "enum": ["celsius", "fahrenheit"]]],
            "required": ["city"],
        ]),
        ToolDefinition(name: "current_time", description: "The current date and time in a time zone", parameters: [
            "type": "object", "properties": ["timezone": ["type": "string", "description": "IANA zone, e.g. Europe/Zurich"]],
        ]),
        ToolDefinition(name: "calculator", description: "Evaluates an arithmetic expression", parameters: [
            "type": "object", "properties": ["expression": ["type": "string"]], "required": ["expression"],
        ]),
    ]
}
