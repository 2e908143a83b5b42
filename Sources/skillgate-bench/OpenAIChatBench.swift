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
}


/// A fixture from `Tests/Fixtures/openai/` (run from the package root or set `$SKILLGATE_FIXTURES`).
private func openAIBenchFixture(_ name: String) throws -> [UInt8] {
    let root = ProcessInfo.processInfo.environment["SKILLGATE_FIXTURES"]
        ?? FileManager.default.currentDirectoryPath + "/Tests/Fixtures"
    return Array(try Data(contentsOf: URL(fileURLWithPath: root + "/openai/" + name)))
}
