import Foundation
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

/// openai-chat: the inbound decoder, ChatRequest → wire body, and the stream translator per chunk.
/// References in the same run: parsing + writing the same bytes with SkillGate's JSONValue alone.
func runOpenAIChatBench() async throws {
    let body = try benchRequestBody()
    let format = OpenAIChatFormat()
    let decode = try measureMicros(iterations: 2000) { _ = try OpenAIChatFormat.decodeInboundRequest(body) }
    report("inbound decode request.json → ChatRequest", decode, unit: "µs")
    let parseRef = try measureMicros(iterations: 2000) { _ = try JSONValue.parse(body) }
    report("  reference: JSONValue.parse of the same bytes", parseRef, unit: "µs")

    let request = try OpenAIChatFormat.decodeInboundRequest(body).request
    let encode = measureMicros(iterations: 2000) {
        _ = format.requestBody(request, model: "gpt-4o-mini", stream: true).serializedBytes()
    }
    report("ChatRequest → openai-chat wire body (bytes)", encode, unit: "µs", target: "target ≤ 50 µs")
    let value = try JSONValue.parse(body)
    let writeRef = measureMicros(iterations: 2000) { _ = value.serializedBytes() }
    report("  reference: JSONValue write of request.json", writeRef, unit: "µs")

    let stream = try openAIBenchFixture("test_parse_multiple_pydantic_tools.sse")
    let chunks = stream.split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: "data:".utf8) }.count
    let translate = try measureMicros(iterations: 500) {
        var t = OpenAIChatStreamTranslator(provider: "openai")
        _ = try t.feed(stream)
        _ = try t.finish()
    }
    report("stream translator per chunk (\(chunks) chunks)", translate / Double(chunks), unit: "µs", target: "target ≤ 5 µs")
    let sseRef = measureMicros(iterations: 500) {
        var t = SSEDecoderReference()
        t.run(stream)
    }
    report("  reference: SSE decode + JSON parse per chunk", sseRef / Double(chunks), unit: "µs")
}

/// The SSE framing and JSON parsing alone, as the floor the translator builds on.
private struct SSEDecoderReference {
    mutating func run(_ bytes: [UInt8]) {
        var decoder = SSEDecoder()
        for event in decoder.feed(bytes) + decoder.finish() where !event.isDone {
            _ = try? JSONValue.parse(event.data)
        }
    }
}

/// A fixture from `Tests/Fixtures/openai/` (run from the package root or set `$SKILLGATE_FIXTURES`).
private func openAIBenchFixture(_ name: String) throws -> [UInt8] {
    let root = ProcessInfo.processInfo.environment["SKILLGATE_FIXTURES"]
        ?? FileManager.default.currentDirectoryPath + "/Tests/Fixtures"
    return Array(try Data(contentsOf: URL(fileURLWithPath: root + "/openai/" + name)))
}
