import SkillGateCore
import SkillGateHTTP

/// The state machine of `OpenAIChatStreamTranslator`: each SSE event's data, read as an
/// `OpenAIChatChunk`, becomes canonical stream events. The answer starts at its first chunk with a choice (the role
/// chunk): a chunk of metadata only (no choice, as Azure sends `prompt_filter_results` first) gives no event, and a stream
/// that ends before any chunk with a choice (comments, metadata, a bare `[DONE]`) ends early before its first event,
/// which the route executor treats as a cut (decision 0129).
struct OpenAIChatChunkInterpreter: SSEEventInterpreter {
    let provider: String
    private(set) var done = false
    private var started = false
    private var finished = false
    private var refused = false
    /// Wire tool-call index → ordinal, in order of appearance.
    private var ordinalByIndex: [Int: Int] = [:]
    private var lastCallId: String?
    private var openOrdinals: [Int] = []
    /// Calls that have had a non-empty arguments fragment: one that had none gets `"{}"` when it ends, as the Anthropic
    /// interpreter gives it and a whole answer has it, so every client reads JSON arguments (decision 0112).
    private var ordinalsWithArguments: Set<Int> = []
    private var usage: Usage?
    /// The usage last handed on: after the finish, a usage chunk is handed on as it comes (the gateway holds the finish
    /// until it has it, decision 0146), and again at the end only when it changed since.
    private var usageHandedOn: Usage?
    private var chunkCount = 0

    init(provider: String) {
        self.provider = provider
    }

    private var errors: OpenAIChatErrorMapper { OpenAIChatErrorMapper(provider: provider, apiKey: nil) }

    /// Applies one SSE event: `[DONE]` ends the answer, a chunk adds its events.
    mutating func apply(_ event: SSERawEvent, into events: inout [ChatStreamEvent]) throws {
        guard !done else { return }
        if event.isDone {
            guard started else {
                throw GatewayError.streamEndedEarly(
                    "\(provider) ended the stream with [DONE] \(beforeAnswer) — retry the request",
                    provider: provider, upstreamStatus: 200)
            }
            if !finished { endAnswer(reason: nil, into: &events) }
            handOnUsage(into: &events)
            done = true
            return
        }
        if event.data.isEmpty { return }
        let chunk: OpenAIChatChunk
        do { chunk = try OpenAIChatChunk.read(event.data, header: !started) } catch {
            throw GatewayError.upstreamProtocol(
                "\(provider) sent a stream chunk that is not valid JSON (\(error)): \"\(Self.preview(event.data))\" — retry; if it persists, the provider is not speaking the OpenAI streaming format",
                provider: provider, upstreamStatus: 200)
        }
        if let kind = chunk.notAnObject {
            throw GatewayError.upstreamProtocol(
                "\(provider) sent a stream chunk that is \(kind), not a JSON object: \"\(Self.preview(event.data))\" — retry; if it persists, the provider is not speaking the OpenAI streaming format",
                provider: provider, upstreamStatus: 200)
        }
        if chunk.isError {
            let json = (try? JSONValue.parse(event.data)) ?? .string(String(decoding: event.data, as: UTF8.self))
            throw errors.inStreamError(json)
        }
        chunkCount += 1
        if let u = chunk.usage { usage = u }
        if !started {
            guard chunk.hasChoice else { return }  // metadata only: the answer has not started (decision 0129)
            started = true
            events.append(.start(id: chunk.id ?? "", model: chunk.model ?? ""))
        }
        if let r = chunk.reasoning, !r.isEmpty { events.append(.thinkingDelta(r)) }
        if let text = chunk.content, !text.isEmpty { events.append(.textDelta(text)) }
        if let refusal = chunk.refusal, !refusal.isEmpty {
            refused = true
            events.append(.refusalDelta(refusal))
        }
        for call in chunk.toolCalls { applyToolCall(call, into: &events) }
        if let reason = chunk.finishReason, !finished { endAnswer(reason: reason, into: &events) }
        // After the finish, the usage is all that is still to come: handed on at once, not at `[DONE]`, so a provider that
        // keeps the stream open after it does not hold the answer's last events (and its charge) back.
        if finished { handOnUsage(into: &events) }
    }

    /// The usage read, unless it was handed on as it is.
    private mutating func handOnUsage(into events: inout [ChatStreamEvent]) {
        guard let usage, usage != usageHandedOn else { return }
        events.append(.usage(usage))
        usageHandedOn = usage
    }

    /// Ends the body: `strayText` is what the SSE decoder found outside events. Throws for a bare
    /// error body, a body that was no event stream, or an answer that never finished.
    mutating func finish(strayText: String, into events: inout [ChatStreamEvent]) throws {
        guard !done else { return }
        if !strayText.isEmpty, let json = try? JSONValue.parse(strayText), json["error"] != nil {
            throw errors.inStreamError(json)
        }
        if chunkCount == 0, !strayText.isEmpty {
            throw GatewayError.upstreamProtocol(
                errors.describeUnreadable(Array(strayText.utf8), status: 200, contentType: nil) + " (expected an event stream)",
                provider: provider, upstreamStatus: 200)
        }
        guard finished else {
            let what = !started ? beforeAnswer : "after \(chunkCount) chunks"
            var e = GatewayError.upstreamProtocol(
                "\(provider) ended the stream \(what) without a finish_reason or [DONE]: the answer is truncated (the connection was probably cut) — retry the request",
                provider: provider, upstreamStatus: 200)
            e.streamEndedEarly = strayText.isEmpty  // cut short, with nothing garbled after its events (decision 0129)
            throw e
        }
        handOnUsage(into: &events)
        done = true
    }

    /// Where a stream that ended before its answer started stood, for error messages.
    private var beforeAnswer: String {
        chunkCount == 0 ? "before any chunk arrived" : "after \(chunkCount) chunks of metadata only, before any chunk with an answer"
    }

    /// The first 120 characters of an event's data, for error messages.
    private static func preview(_ data: UnsafeBufferPointer<UInt8>) -> Substring {
        String(decoding: data, as: UTF8.self).prefix(120)
    }

    private mutating func applyToolCall(_ call: OpenAIChatChunk.ToolCallDelta, into events: inout [ChatStreamEvent]) {
        let id = call.id
        // Servers that omit `index` send each call whole or repeat its id: a new id is a new call.
        let index: Int
        if let i = call.index {
            index = i
        } else if let id, !id.isEmpty, id != lastCallId {
            index = (ordinalByIndex.keys.max() ?? -1).clampedAdding(1)  // the wire's index may be Int.max
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
            ordinalsWithArguments.insert(ordinal)
            events.append(.toolCallArgumentsDelta(ordinal: ordinal, fragment: fragment))
        }
    }

    /// Closes open tool calls and emits the finish reason (`nil`: the stream said `[DONE]` without one).
    private mutating func endAnswer(reason: String?, into events: inout [ChatStreamEvent]) {
        for ordinal in openOrdinals {
            if !ordinalsWithArguments.contains(ordinal) { events.append(.toolCallArgumentsDelta(ordinal: ordinal, fragment: "{}")) }
            events.append(.toolCallEnd(ordinal: ordinal))
        }
        openOrdinals.removeAll()
        let hasCalls = !ordinalByIndex.isEmpty
        events.append(.finish(OpenAIChatFormat.finishReason(wire: reason, hasToolCalls: hasCalls, refused: refused)))
        finished = true
    }
}
