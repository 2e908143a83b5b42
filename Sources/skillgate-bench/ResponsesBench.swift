import Foundation
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
import SkillGateState

/// responses: what `/v1/responses` costs per request beside `/v1/chat/completions` for the same request and the
/// same upstream answer (the side-by-side harness's `Bench/proxy/request*.json` and its mock answer): decode plus
/// encode, whole and streamed, and with `store` on the conversation's serialization and its share of a batched
/// SQLite write. Thread CPU time; the chat figures are the reference measured in the same run. The harness
/// (`Bench/run.sh --surfaces`) measures the whole request; this isolates the surfaces' own work, which is all
/// that differs between the two paths.
func runResponsesBench() async throws {
    let dir = FileManager.default.currentDirectoryPath + "/Bench/proxy/"
    let chatBody = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "request.json")))
    let responsesBody = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "request-responses.json")))
    let text = "The nightly build failed in the linker step; rerunning with the cache cleared fixed it."
    let usage = Usage(inputTokens: 388, outputTokens: 24)
    let answer = ChatResponse(id: "chatcmpl-skillgate-bench-1", model: "mock-model", content: [.text(text)], finishReason: .stop, usage: usage)
    let words = ["The", " nightly", " build", " failed", " in", " the", " linker", " step;", " rerunning", " with",
                 " the", " cache", " cleared", " fixed", " it", "."]
    let events: [ChatStreamEvent] = [.start(id: "chatcmpl-skillgate-bench-stream-1", model: "mock-model")] + words.map { .textDelta($0) }
        + [.finish(.stop), .usage(usage)]
    let stateDir = NSTemporaryDirectory() + "skillgate-bench-responses-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: stateDir) }
    let store = try SQLiteStateStore(stateDirectory: stateDir)

    func line(_ name: String, iterations: Int = 3000, _ body: () throws -> Void) rethrows -> Double {
        let cpu = try measureCPUMicros(iterations: iterations, body)
        report(name, cpu, unit: "µs cpu")
        return cpu
    }
    @Sendable func conversation(_ inbound: ResponsesInboundRequest, _ response: ChatResponse) -> [UInt8] {
        OpenAIResponsesFormat.conversationJSON(Array(inbound.inputMessages) + [response.message])
    }
    func object(_ inbound: ResponsesInboundRequest) -> ResponsesObject {
        ResponsesObject(id: "resp_0123456789abcdef01234567", createdAt: 1_767_225_600, model: "mock/mock-model", echo: inbound.echo)
    }

    _ = try line("chat: decode alone") { _ = try OpenAIChatFormat.decodeInboundRequest(chatBody) }
    _ = try line("responses: decode alone") { _ = try OpenAIResponsesFormat.decodeInboundRequest(responsesBody) }
    let toolLists = ToolListCache()
    _ = try OpenAIResponsesFormat.decodeInboundRequest(responsesBody, toolCache: toolLists, scope: "bench")
    _ = try line("  tools from the tool-list cache (the gateway's path)") {
        _ = try OpenAIResponsesFormat.decodeInboundRequest(responsesBody, toolCache: toolLists, scope: "bench")
    }
    let viaCache = try OpenAIResponsesFormat.decodeInboundRequest(responsesBody, toolCache: toolLists, scope: "bench").request
    _ = line("  that request's Chat upstream body") { _ = OpenAIChatFormat().requestBytes(viaCache, model: "gpt", stream: true) }
    let fresh = try OpenAIResponsesFormat.decodeInboundRequest(responsesBody).request
    _ = line("  a fresh decode's Chat upstream body (ref.)") { _ = OpenAIChatFormat().requestBytes(fresh, model: "gpt", stream: true) }
    let decoded = try OpenAIResponsesFormat.decodeInboundRequest(responsesBody)
    _ = line("responses: echo of the request (once per answer)") { _ = object(decoded) }
    let made = object(decoded)
    _ = line("chat: whole answer alone") {
        _ = OpenAIChatFormat.encodeInboundResponseBytes(answer, id: "chatcmpl-x", model: "mock/mock-model", created: 1_767_225_600)
    }
    _ = line("responses: whole answer alone") { _ = OpenAIResponsesFormat.responseBody(answer, object: made) }
    _ = line("responses: the conversation's JSON alone") { _ = conversation(decoded, answer) }
    let chatWhole = try line("chat: decode + whole answer") {
        let inbound = try OpenAIChatFormat.decodeInboundRequest(chatBody)
        _ = OpenAIChatFormat.encodeInboundResponseBytes(answer, id: "chatcmpl-x", model: inbound.request.model, created: 1_767_225_600)
    }
    let responsesWhole = try line("responses: decode + whole answer") {
        let inbound = try OpenAIResponsesFormat.decodeInboundRequest(responsesBody)
        _ = OpenAIResponsesFormat.responseBody(answer, object: object(inbound))
    }
    let storeWhole = try line("  + store: the conversation's JSON") {
        let inbound = try OpenAIResponsesFormat.decodeInboundRequest(responsesBody)
        _ = OpenAIResponsesFormat.responseBody(answer, object: object(inbound))
        _ = conversation(inbound, answer)
    } - responsesWhole
    let chatStream = try line("chat: decode + stream (\(events.count) events)") {
        let inbound = try OpenAIChatFormat.decodeInboundRequest(chatBody)
        var encoder = OpenAIChatStreamEncoder(id: "chatcmpl-x", model: inbound.request.model, created: 1_767_225_600, includeUsage: false)
        var bytes = 0
        for e in events { bytes += encoder.encode(e).count }
        bytes += encoder.finish().count
    }
    let responsesStream = try line("responses: decode + stream") {
        let inbound = try OpenAIResponsesFormat.decodeInboundRequest(responsesBody)
        var encoder = ResponsesStreamEncoder(object: object(inbound))
        var bytes = 0
        for e in events { bytes += encoder.encode(e).count }
        bytes += encoder.finish().count
    }
    let storeStream = try line("  + store: accumulate + the conversation's JSON") {
        let inbound = try OpenAIResponsesFormat.decodeInboundRequest(responsesBody)
        var encoder = ResponsesStreamEncoder(object: object(inbound)) { response, _ in _ = conversation(inbound, response) }
        var bytes = 0
        for e in events { bytes += encoder.encode(e).count }
        bytes += encoder.finish().count
    } - responsesStream
    // The encoders alone, per event: the text stream above, and a tool call whose arguments come in 24 fragments.
    let fragments = (0..<24).map { i in i == 0 ? #"{"query":"# : i == 23 ? #""}"# : (i == 1 ? #"""# : "word\(i) ") }
    let callEvents: [ChatStreamEvent] = [.start(id: "chatcmpl-skillgate-bench-stream-2", model: "mock-model"),
                                         .toolCallStart(ordinal: 0, id: "call_bench", name: "search_docs")]
        + fragments.map { .toolCallArgumentsDelta(ordinal: 0, fragment: $0) } + [.toolCallEnd(ordinal: 0), .finish(.toolCalls), .usage(usage)]
    for (name, stream) in [("text", events), ("tool call", callEvents)] {
        let perEvent = Double(stream.count + 1)
        let chat = measureCPUMicros(iterations: 3000) {
            var encoder = OpenAIChatStreamEncoder(id: "chatcmpl-x", model: "mock/mock-model", created: 1_767_225_600, includeUsage: false)
            for e in stream { _ = encoder.encode(e) }
            _ = encoder.finish()
        } / perEvent
        let responses = measureCPUMicros(iterations: 3000) {
            var encoder = ResponsesStreamEncoder(object: made)
            for e in stream { _ = encoder.encode(e) }
            _ = encoder.finish()
        } / perEvent
        report("responses: \(name) stream, per event (\(stream.count) + finish)", responses, unit: "µs cpu")
        report("  chat, same events (ref.)", chat, unit: "µs cpu")
    }
    let inbound = try OpenAIResponsesFormat.decodeInboundRequest(responsesBody)
    let stored = conversation(inbound, answer)
    var n: Int64 = 0
    let batch = 50
    var rng = SystemRandomNumberGenerator()
    let write = try line("  store write, batches of \(batch) (per batch)", iterations: 400) {
        let now = Date()
        let rows = (0..<batch).map { i in
            StoredResponse(id: OpenAIResponsesFormat.responseId(milliseconds: 1_767_225_600_000 + n * 50 + Int64(i), unique: Substring(String(rng.next(), radix: 16))),
                           tokenId: "tok", createdAt: now, expiresAt: now.addingTimeInterval(3600), conversation: stored)
        }
        n += 1
        try store.saveResponses(rows, now: now)
    } / Double(batch)
    print("  added by /v1/responses per request: whole \(String(format: "%.1f", responsesWhole - chatWhole)) µs, "
          + "+ store \(String(format: "%.1f", storeWhole + write)) µs; "
          + "streamed \(String(format: "%.1f", responsesStream - chatStream)) µs, + store \(String(format: "%.1f", storeStream + write)) µs")
}

/// responses-store: the stored responses' writes alone, as the archive's writer thread makes them, in the steady
/// state of a gateway that has run for a retention period: the table holds `kept` answers, and each batch adds
/// `batch` answers (the harness's conversation, time-ordered ids) and removes as many that expired. Per answer, thread
/// CPU. `SKILLGATE_BENCH_KEPT` (20000), `SKILLGATE_BENCH_BATCH` (50) and `SKILLGATE_BENCH_BATCHES` (100 per round, five
/// rounds after a tenth for warm-up) change the figures. Under callgrind, `--collect-atstart=no
/// --toggle-collect='*measuredStoreWrite*'` counts the batches' instructions only (not the table's filling).
func runResponsesStoreBench() throws {
    let dir = FileManager.default.currentDirectoryPath + "/Bench/proxy/"
    let body = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "request-responses.json")))
    let inbound = try OpenAIResponsesFormat.decodeInboundRequest(body)
    let answer = Message(role: .assistant, text: "The nightly build failed in the linker step; rerunning with the cache cleared fixed it.")
    let conversation = OpenAIResponsesFormat.conversationJSON(Array(inbound.inputMessages) + [answer])
    let env = ProcessInfo.processInfo.environment
    let kept = Int(env["SKILLGATE_BENCH_KEPT"] ?? "") ?? 20_000
    let batch = Int(env["SKILLGATE_BENCH_BATCH"] ?? "") ?? 50
    let iterations = Int(env["SKILLGATE_BENCH_BATCHES"] ?? "") ?? 100
    let stateDir = NSTemporaryDirectory() + "skillgate-bench-responses-store-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: stateDir) }
    let store = try SQLiteStateStore(stateDirectory: stateDir)
    // Answer i is created at t0 + i ms and kept `kept` ms, so every batch expires as many answers as it adds.
    let t0: Int64 = 1_767_225_600_000
    func rows(_ range: Range<Int>) -> [StoredResponse] {
        range.map { i in
            let created = Date(timeIntervalSince1970: Double(t0 + Int64(i)) / 1000)
            return StoredResponse(id: OpenAIResponsesFormat.responseId(milliseconds: t0 + Int64(i), unique: Substring(String(UInt64(i) &* 0x9E37_79B9_7F4A_7C15, radix: 36))),
                                  tokenId: "tok_bench", createdAt: created, expiresAt: created.addingTimeInterval(Double(kept) / 1000), conversation: conversation)
        }
    }
    for start in stride(from: 0, to: kept, by: 1000) {
        try store.saveResponses(rows(start..<min(kept, start + 1000)), now: Date(timeIntervalSince1970: Double(t0 + Int64(start)) / 1000))
    }
    var next = kept
    let perBatch = try measureCPUMicros(iterations: iterations) {
        let made = rows(next..<next + batch)
        next += batch
        try measuredStoreWrite(store, made, now: made[made.count - 1].createdAt)
    }
    let rowsKept = try store.withConnection { db in try db.prepare("SELECT count(*) FROM stored_responses").firstRow { $0.int64(0) } ?? 0 }
    report("write of \(conversation.count) B, \(kept) kept, by \(batch)", perBatch / Double(batch), unit: "µs cpu per answer",
           target: "(\(next - kept) answers written, \(rowsKept) rows at the end)")
}

/// One measured batch (a symbol of its own for callgrind's `--toggle-collect`).
@inline(never)
func measuredStoreWrite(_ store: SQLiteStateStore, _ rows: [StoredResponse], now: Date) throws {
    try store.saveResponses(rows, now: now)
}
