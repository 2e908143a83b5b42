import Foundation
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

/// openai-chat: the inbound decoder, ChatRequest → wire body, and the stream translator per chunk.
/// References in the same run: SkillGate's JSONValue parse/write of the same bytes, and the SSE
/// decoder alone. Figures are thread CPU time (the build machine is shared and loaded, which
/// inflates wall-clock figures several times); wall-clock medians are printed alongside.
func runOpenAIChatBench() async throws {
    let body = try benchRequestBody()
    let format = OpenAIChatFormat()
    let request = try OpenAIChatFormat.decodeInboundRequest(body).request
    let value = try JSONValue.parse(body)
    let stream = try openAIBenchFixture("test_parse_multiple_pydantic_tools.sse")
    let chunks = Double(stream.split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: "data:".utf8) }.count)

    func line(_ name: String, iterations: Int, per divisor: Double = 1, target: String = "", _ body: () throws -> Void) rethrows {
        let cpu = try measureCPUMicros(iterations: iterations, body) / divisor
        let wall = try measureMicros(iterations: iterations, body) / divisor
        report(name, cpu, unit: "µs cpu", target: "(wall \(String(format: "%.1f", wall)) µs) \(target)")
    }

    try line("inbound decode request.json → ChatRequest", iterations: 2000) { _ = try OpenAIChatFormat.decodeInboundRequest(body) }
    try line("  ref: JSONValue.parse of the same bytes", iterations: 2000) { _ = try JSONValue.parse(body) }
    // An agent's tenth turn: the messages are read straight from the bytes (decision 0062); the reference decodes the
    // same body through its tree, as the decoder did before and still does for a body it cannot read directly.
    let conversation = agentConversationBody(turns: 10)
    try line("inbound decode, an agent's 41 messages", iterations: 1000) {
        _ = try OpenAIChatFormat.decodeInboundRequest(conversation)
    }
    try line("  ref: the same through a JSONValue tree", iterations: 1000) {
        _ = try OpenAIChatFormat.decodeInboundRequest(json: JSONValue.parse(conversation))
    }
    line("ChatRequest → openai-chat wire body bytes", iterations: 2000, target: "target ≤ 50 µs") {
        _ = format.requestBytes(request, model: "gpt-4o-mini", stream: true)
    }
    line("  ref: JSONValue write of request.json", iterations: 2000) { _ = value.serializedBytes() }
    try line("stream translator per chunk (\(Int(chunks)) chunks)", iterations: 300, per: chunks, target: "target ≤ 5 µs") {
        var t = OpenAIChatStreamTranslator(provider: "openai")
        _ = try t.feed(stream)
        _ = try t.finish()
    }
    line("  ref: SSE decode + JSON parse per chunk", iterations: 300, per: chunks) {
        var decoder = SSEDecoder()
        for event in stream.withUnsafeBytes({ decoder.feed($0) }) + decoder.finish() where !event.isDone {
            _ = try? JSONValue.parse(event.data)
        }
    }
    line("  ref: SSE decode alone per chunk (buffer feed)", iterations: 300, per: chunks) {
        var d = SSEDecoder()
        _ = stream.withUnsafeBytes { d.feed($0) } + d.finish()
    }
    line("  ref: SSE decode alone per chunk (generic feed)", iterations: 300, per: chunks) {
        var d = SSEDecoder()
        _ = d.feed(stream) + d.finish()
    }
    // An upstream that answers 200 with text that is not JSON (a misconfigured base URL, a proxy's page): the error
    // message quotes the start of it, with anything key-like masked.
    let notJSON = Array(("upstream connect error or disconnect/reset before headers. retried and the latest reset reason: "
        + "connection timeout; request id 7f3a9c2e-41d8-4b0e-9a61-0c5e8d2f1b77, route cluster outbound|443||api.example.internal, "
        + "please try again later or contact the operator of this deployment").utf8)
    line("an upstream's 200 that is not JSON → its error message", iterations: 2000) {
        _ = try? OpenAIChatFormat.parseCompletion(notJSON, provider: "bench")
    }
}

/// A Chat Completions body with a system message and `turns` rounds of a question, a tool call, its result and an
/// answer, as an agent sends it on a later turn (no tools, so that both decoders do the same work for the rest).
private func agentConversationBody(turns: Int) -> [UInt8] {
    var messages = [#"{"role":"system","content":"You help the release engineers of a mobile team. Be brief and say which tools you used."}"#]
    for t in 0..<turns {
        messages.append(#"{"role":"user","content":"Did last night's build \#(t) of acme/ios-app fail at the link step, and why?"}"#)
        messages.append(#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_\#(t)","type":"function","function":{"name":"search_build_logs","arguments":"{\"repository\":\"acme/ios-app\",\"query\":\"undefined symbol\",\"limit\":20}"}}]}"#)
        messages.append(#"{"role":"tool","tool_call_id":"call_\#(t)","content":"12 lines: ld: undefined symbol _OBJC_CLASS_$_FIRApp (referenced from AppDelegate.o)"}"#)
        messages.append(#"{"role":"assistant","content":"The link step failed on an undefined Firebase symbol after the dependency bump; clearing the cache will not help."}"#)
    }
    return Array(#"{"model":"mock-model","messages":[\#(messages.joined(separator: ","))],"temperature":0.2,"max_tokens":256}"#.utf8)
}

/// A fixture from `Tests/Fixtures/openai/` (run from the package root or set `$SKILLGATE_FIXTURES`).
private func openAIBenchFixture(_ name: String) throws -> [UInt8] {
    let root = ProcessInfo.processInfo.environment["SKILLGATE_FIXTURES"]
        ?? FileManager.default.currentDirectoryPath + "/Tests/Fixtures"
    return Array(try Data(contentsOf: URL(fileURLWithPath: root + "/openai/" + name)))
}
