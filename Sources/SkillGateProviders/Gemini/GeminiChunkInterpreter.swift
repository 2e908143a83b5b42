import SkillGateCore
import Synchronization

/// Turns `GenerateContentResponse` objects (one per SSE chunk, or the single non-streamed body),
/// read as `GeminiChunk`s, into canonical events. Shared by the stream translator and
/// `parseResponse`, so a streamed and a non-streamed answer fold into the same `ChatResponse`.
///
/// - Whole `functionCall`s give `toolCallStart`, one arguments delta, `toolCallEnd` at once.
///   Vertex streamed arguments (`willContinue` + `partialArgs` with `jsonPath`) are collected and
///   sent as one arguments delta when the call closes (an empty `functionCall` without `willContinue`).
/// - Calls without an `id` get `call_<responseId>_<ordinal>`: unique per call (parallel calls to
///   one function included) and deterministic; without a `responseId`, a per-response salt
///   (`GeminiCallIdSalt`: random per process, counted per response) replaces it.
/// - `thoughtSignature` on a call → `toolCallSignature`; on any other part → `thinkingSignature`.
/// - Usage grows per chunk; only the last figures are sent, after `finish`: when the body ends, or, for a stream
///   (`handsOnTheEnd`), at the first chunk with usage counts at or after the finish (below).
/// - `start` is held back until the first chunk that carries something the client would see (text, thinking, a call,
///   a finish or a prompt block): a chunk of metadata only (`usageMetadata`, `modelVersion`, `responseId`, as Vertex AI
///   sometimes sends first) gives no event, so a stream is not committed to its deployment before it has an answer,
///   and a failed answer after such a chunk is still tried again (decision 0123). Its usage is kept all the same.
///
/// A stream has no end of its own but the body's (no `[DONE]`, no `message_stop`), so an upstream that keeps its body
/// open after its last chunk held the answer's finish and usage until its idle timeout. With `handsOnTheEnd`, the finish
/// and the usage are handed on at the first chunk that carries usage counts at or after the answer's end (its
/// `finishReason`, or a prompt block): the `finishReason` chunk itself in the recorded streams of
/// generativelanguage.googleapis.com and of Vertex AI (both send `usageMetadata` with it), or a later chunk of usage only
/// where a provider sends the usage after the finish. A changed usage after that is handed on as it comes, and at the end
/// only when it changed. The gateway then ends the client's stream there (decision 0160). A `finishReason` on a chunk
/// without usage counts is not taken for the end: streams of 2024 (and the recorded Vertex stream
/// `vertexai-streaming-failure-error-mid-stream.txt`) carried `STOP` on every chunk, without `usageMetadata`, and went
/// on; their finish waits for the body's end, as before.
struct GeminiChunkInterpreter: Sendable {
    let provider: String
    let apiKey: String?
    /// Whether the finish and the usage are handed on at the chunk that ends the answer (a stream), rather than when the
    /// body ends (a whole answer, whose body ends with its one object).
    let handsOnTheEnd: Bool
    /// Made the first time a call id is synthesised without a `responseId` (most responses never need one).
    private var salt: String?
    /// Whether a chunk was applied.
    private var started = false
    /// Whether `start` was sent (at the first chunk with content).
    private var startSent = false
    private var responseId = ""
    private var modelVersion = ""
    private var toolCallCount = 0
    private var pending: GeminiPartialCall?
    private var finishRaw: String?
    private var blockReason: String?
    private var usage = Usage()
    /// The usage last handed on with or after the finish; nil until the finish was handed on.
    private var usageHandedOn: Usage?
    /// Whether the last content event closed a thinking block with a signature (a second signature
    /// then needs a block of its own, or the accumulator would concatenate the two).
    private var signedThinkingIsLast = false

    init(provider: String, apiKey: String?, handsOnTheEnd: Bool = false) {
        self.provider = provider
        self.apiKey = apiKey
        self.handsOnTheEnd = handsOnTheEnd
    }

    /// Whether the next chunk's `responseId` and `modelVersion` are still needed.
    var needsHeader: Bool { !startSent || responseId.isEmpty }

    /// Applies one `GenerateContentResponse` (or an `{"error":…}` object, which throws; so does a failed-answer finish
    /// reason such as `MALFORMED_FUNCTION_CALL`, `GeminiFormat.failedAnswerReason`).
    mutating func apply(_ chunk: GeminiChunk) throws -> [ChatStreamEvent] {
        var events: [ChatStreamEvent] = []
        try apply(chunk, into: &events)
        return events
    }

    /// Applies one chunk, appending its events to `events`.
    mutating func apply(_ chunk: GeminiChunk, into events: inout [ChatStreamEvent]) throws {
        if let kind = chunk.notAnObject {
            throw GatewayError.upstreamProtocol(
                "Gemini (provider '\(provider)') sent \(kind) where a response object was expected; retry the request.",
                provider: provider)
        }
        if let error = chunk.error {
            throw GeminiFormat.error(from: error, httpStatus: nil, retryAfterHeader: nil, provider: provider, apiKey: apiKey)
        }
        if events.capacity == 0 { events.reserveCapacity(4) }  // one allocation for a chunk's few events
        if let id = chunk.responseId, responseId.isEmpty { responseId = id }
        if let model = chunk.modelVersion, modelVersion.isEmpty { modelVersion = model }
        started = true
        if let reason = chunk.blockReason { blockReason = reason }
        if let parsed = chunk.usage { usage = parsed }
        let firstOfChunk = events.count
        for i in chunk.parts.indices {  // borrowed, not copied
            try apply(part: chunk.parts[i], into: &events)
        }
        if let reason = chunk.finishReason {
            // A failed attempt, not an answer (decision 0117): thrown at once, with the events of this chunk, so a stream
            // whose first chunk with content it is fails before its first event and is retried.
            if let failed = GeminiFormat.failedAnswerReason(reason) {
                throw GeminiFormat.failedAnswer(failed, raw: reason, usage: usage, provider: provider)
            }
            finishRaw = reason
        }
        // The stream starts at its first chunk with something the client would see; metadata alone waits (decision 0123).
        if !startSent, events.count > firstOfChunk || chunk.finishReason != nil || chunk.blockReason != nil {
            events.insert(.start(id: responseId, model: modelVersion), at: firstOfChunk)
            startSent = true
        }
        if handsOnTheEnd, chunk.usage != nil { handOnTheEnd(into: &events) }
    }

    /// At a chunk with usage counts: the answer's end (finish, usage) when it was read and not handed on yet; after it, a
    /// changed usage.
    private mutating func handOnTheEnd(into events: inout [ChatStreamEvent]) {
        if let handedOn = usageHandedOn {
            if usage != handedOn { appendUsage(into: &events) }
        } else if finishRaw != nil || blockReason != nil {
            appendEnd(into: &events)
        }
    }

    private mutating func apply(part: GeminiChunk.Part, into events: inout [ChatStreamEvent]) throws {
        let signature = part.thoughtSignature
        if let call = part.functionCall {
            if var partial = pending, !call.hasName {
                if let signature { events.append(.toolCallSignature(ordinal: partial.ordinal, signature: signature)) }
                try partial.apply(call.partialArgs, provider: provider)
                pending = partial
                if call.willContinue != true { closePending(into: &events) }
                return
            }
            // A nameless fragment with no call open (a repeated close marker) carries nothing to call.
            guard let name = call.name else { return }
            closePending(into: &events)
            signedThinkingIsLast = false
            let ordinal = toolCallCount
            toolCallCount += 1
            let id = call.id ?? "call_\(responseId.isEmpty ? responseSalt() : responseId)_\(ordinal)"
            events.append(.toolCallStart(ordinal: ordinal, id: id, name: name))
            if let signature { events.append(.toolCallSignature(ordinal: ordinal, signature: signature)) }
            var partial = GeminiPartialCall(ordinal: ordinal, args: call.args ?? JSONObject())
            try partial.apply(call.partialArgs, provider: provider)
            pending = partial
            if call.willContinue != true { closePending(into: &events) }
            return
        }
        if let text = part.text, !text.isEmpty {
            events.append(part.thought == true ? .thinkingDelta(text) : .textDelta(text))
            signedThinkingIsLast = false
        }
        if let signature {
            if signedThinkingIsLast { events.append(.thinkingDelta("")) }
            events.append(.thinkingSignature(signature))
            signedThinkingIsLast = true
        }
    }

    private mutating func responseSalt() -> String {
        if let salt { return salt }
        let made = GeminiCallIdSalt.next()
        salt = made
        return made
    }

    private mutating func closePending(into events: inout [ChatStreamEvent]) {
        guard let call = pending else { return }
        pending = nil
        events.append(.toolCallArgumentsDelta(ordinal: call.ordinal, fragment: JSONValue.object(call.args).serialized()))
        events.append(.toolCallEnd(ordinal: call.ordinal))
    }

    /// Ends the answer: `finish` and the final usage. With `requireFinish` (streams), an answer that
    /// never got a `finishReason` (nor a prompt block) is a truncated stream and throws (`streamEndedEarly`: before the
    /// first event, as after chunks of metadata only, the route executor treats it as a cut, decision 0129).
    mutating func finish(requireFinish: Bool) throws -> [ChatStreamEvent] {
        if finishRaw == nil, blockReason == nil, requireFinish {
            throw GatewayError.streamEndedEarly(
                "The Gemini stream from provider '\(provider)' ended before the answer was complete (no finishReason; "
                    + (started ? "the connection was cut or the response truncated" : "no data at all") + "). Retry the request.",
                provider: provider)
        }
        var events: [ChatStreamEvent] = []
        if let handedOn = usageHandedOn {  // the end went out at its chunk: only what changed since
            closePending(into: &events)
            if usage != handedOn { appendUsage(into: &events) }
            return events
        }
        if started, !startSent {  // a whole answer of metadata only: it still starts
            events.append(.start(id: responseId, model: modelVersion))
            startSent = true
        }
        appendEnd(into: &events)
        return events
    }

    /// The answer's end: a call still open, the finish (none when neither a `finishReason` nor a block came, as a whole
    /// answer may end), the usage.
    private mutating func appendEnd(into events: inout [ChatStreamEvent]) {
        closePending(into: &events)
        if let raw = finishRaw {
            events.append(.finish(Self.finishReason(raw, hasToolCalls: toolCallCount > 0)))
        } else if blockReason != nil {
            events.append(.finish(.contentFilter))
        }
        appendUsage(into: &events)
    }

    private mutating func appendUsage(into events: inout [ChatStreamEvent]) {
        events.append(.usage(usage))
        usageHandedOn = usage
    }

    /// Gemini `finishReason` → `FinishReason`; unknown reasons are kept verbatim. (The failed-answer reasons never get
    /// here: `apply` throws for them.)
    static func finishReason(_ raw: String, hasToolCalls: Bool) -> FinishReason {
        switch raw {
        case "STOP": return hasToolCalls ? .toolCalls : .stop
        case "MAX_TOKENS": return .length
        case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT":
            return .contentFilter
        default: return .other(raw)
        }
    }

    /// `usageMetadata` counts → `Usage` (output = candidates + thoughts; reasoning = thoughts), or
    /// `nil` when there are no counts yet (Vertex sends `{"trafficType":…}` alone mid-stream).
    static func usage(prompt: Int?, candidates: Int?, thoughts: Int?, toolUsePrompt: Int?, cached: Int?) -> Usage? {
        guard prompt != nil || candidates != nil || thoughts != nil else { return nil }
        return Usage(inputTokens: (prompt ?? 0).clampedAdding(toolUsePrompt ?? 0), outputTokens: (candidates ?? 0).clampedAdding(thoughts ?? 0),
                     cachedInputTokens: cached ?? 0, reasoningTokens: thoughts ?? 0)
    }
}

/// Salts for synthesised call ids when a response has no `responseId`: a random process prefix
/// (one `getrandom` per process, not per stream) and a counter, so ids stay unique across
/// responses and restarts.
enum GeminiCallIdSalt {
    private static let prefix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    private static let counter = Atomic<UInt64>(0)

    static func next() -> String {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return "gemini\(prefix)x\(String(n, radix: 36))"
    }
}
