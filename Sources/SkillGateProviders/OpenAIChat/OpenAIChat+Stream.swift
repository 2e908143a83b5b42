import SkillGateCore
import SkillGateHTTP

/// Chat Completions SSE body → canonical stream events. A value-type state machine fed raw body
/// bytes in any split.
///
/// - Tool calls are keyed by the wire `index`; the first delta of an index carries `id` and
///   `name`, later ones only argument fragments. Each index gets the next ordinal.
/// - Only choice 0 is followed (chunks for other choices are ignored).
/// - `toolCallEnd` for every open call and `finish` are emitted when `finish_reason` arrives;
///   `usage` once, at `[DONE]` (or at the end of the body), with the last usage seen.
/// - An `{"error":...}` data event, a chunk that is not JSON, or a body that ends with neither
///   a `finish_reason` nor `[DONE]` throws a `GatewayError` naming the provider.
public struct OpenAIChatStreamTranslator: WireStreamTranslator {
    /// The provider id, for error messages.
    public let provider: String

    private var sse = SSEDecoder()
    private var started = false
    private var done = false
    private var finished = false
    private var refused = false
    /// Wire tool-call index → ordinal, in order of appearance.
    private var ordinalByIndex: [Int: Int] = [:]
    private var lastCallId: String?
    private var openOrdinals: [Int] = []
    private var usage: Usage?
    private var chunkCount = 0

    public init(provider: String) {
        self.provider = provider
    }

    public mutating func feed(_ bytes: [UInt8]) throws -> [ChatStreamEvent] {
        guard !done else { return [] }
        var events: [ChatStreamEvent] = []
        // The buffer overload is the decoder's specialised fast path (the generic one is not
        // specialised across the module boundary and costs ~10x per byte).
        let decoded = bytes.withUnsafeBytes { sse.feed($0) }
        for event in decoded { try handle(event, into: &events) }
        return events
    }

    public mutating func finish() throws -> [ChatStreamEvent] {
        guard !done else { return [] }
        var events: [ChatStreamEvent] = []
        for event in sse.finish() { try handle(event, into: &events) }
        if done { return events }
        if !sse.strayText.isEmpty, let json = try? JSONValue.parse(sse.strayText), json["error"] != nil {
            throw OpenAIChatErrorMapper(provider: provider, apiKey: nil).inStreamError(json)
        }
        if chunkCount == 0, !sse.strayText.isEmpty {
            throw GatewayError.upstreamProtocol(
                OpenAIChatErrorMapper(provider: provider, apiKey: nil)
                    .describeUnreadable(Array(sse.strayText.utf8), status: 200, contentType: nil) + " (expected an event stream)",
                provider: provider, upstreamStatus: 200)
        }
        guard finished else {
            let what = chunkCount == 0 ? "before any chunk arrived" : "after \(chunkCount) chunks"
            throw GatewayError.upstreamProtocol(
                "\(provider) ended the stream \(what) without a finish_reason or [DONE]: the answer is truncated (the connection was probably cut) — retry the request",
                provider: provider, upstreamStatus: 200)
        }
        if let usage { events.append(.usage(usage)) }
        done = true
        return events
    }

    private mutating func handle(_ event: SSEEvent, into events: inout [ChatStreamEvent]) throws {
        guard !done else { return }
        if event.isDone {
            if !finished { endAnswer(reason: nil, into: &events) }
            if let usage { events.append(.usage(usage)) }
            done = true
            return
        }
        if event.data.isEmpty { return }
        let chunk: OpenAIChatChunk
        do { chunk = try OpenAIChatChunk.read(event.data, header: !started) } catch {
            throw GatewayError.upstreamProtocol(
                "\(provider) sent a stream chunk that is not valid JSON (\(error)): \"\(event.data.prefix(120))\" — retry; if it persists, the provider is not speaking the OpenAI streaming format",
                provider: provider, upstreamStatus: 200)
        }
        if chunk.isError {
            let json = (try? JSONValue.parse(event.data)) ?? .string(event.data)
            throw OpenAIChatErrorMapper(provider: provider, apiKey: nil).inStreamError(json)
        }
        chunkCount += 1
        if !started {
            started = true
            events.append(.start(id: chunk.id ?? "", model: chunk.model ?? ""))
        }
        if let u = chunk.usage { usage = u }
        if let r = chunk.reasoning, !r.isEmpty { events.append(.thinkingDelta(r)) }
        if let text = chunk.content, !text.isEmpty { events.append(.textDelta(text)) }
        if let refusal = chunk.refusal, !refusal.isEmpty {
            refused = true
            events.append(.textDelta(refusal))
        }
        for call in chunk.toolCalls { applyToolCall(call, into: &events) }
        if let reason = chunk.finishReason, !finished { endAnswer(reason: reason, into: &events) }
    }

    private mutating func applyToolCall(_ call: OpenAIChatChunk.ToolCallDelta, into events: inout [ChatStreamEvent]) {
        let id = call.id
        // Servers that omit `index` send each call whole or repeat its id: a new id is a new call.
        let index: Int
        if let i = call.index {
            index = i
        } else if let id, !id.isEmpty, id != lastCallId {
            index = (ordinalByIndex.keys.max() ?? -1) + 1
        } else {
            index = ordinalByIndex.keys.max() ?? 0
        }
        let ordinal: Int
        if let known = ordinalByIndex[index] {
            ordinal = known
        } else {
            ordinal = ordinalByIndex.count
            ordinalByIndex[index] = ordinal
            openOrdinals.append(ordinal)
            let callId = (id?.isEmpty == false ? id! : "call_\(ordinal)")
            lastCallId = id
            events.append(.toolCallStart(ordinal: ordinal, id: callId, name: call.name ?? ""))
        }
        if let fragment = call.arguments, !fragment.isEmpty {
            events.append(.toolCallArgumentsDelta(ordinal: ordinal, fragment: fragment))
        }
    }

    /// Closes open tool calls and emits the finish reason (`nil`: the stream said `[DONE]` without one).
    private mutating func endAnswer(reason: String?, into events: inout [ChatStreamEvent]) {
        for ordinal in openOrdinals { events.append(.toolCallEnd(ordinal: ordinal)) }
        openOrdinals.removeAll()
        let hasCalls = !ordinalByIndex.isEmpty
        events.append(.finish(OpenAIChatFormat.finishReason(wire: reason, hasToolCalls: hasCalls, refused: refused)))
        finished = true
    }
}
