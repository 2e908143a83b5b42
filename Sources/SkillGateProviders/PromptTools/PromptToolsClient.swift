import SkillGateCore
import SkillGateHTTP

/// Gives tools to any text-only model (the `prompt-tools` wire format).
///
/// The offered tools are written into the system prompt in the Hermes/Qwen convention that open
/// models are trained on, and tool calls are read back out of the model's text — also while
/// streaming — as ordinary tool calls. The inner model receives no tool definitions.
///
/// A call to a tool that was **not offered** is never passed on as a tool call, and it does not
/// become text either: the answer fails with a `GatewayError` whose `upstreamCode` is
/// `PromptToolsClient.toolNotOfferedCode` (provider domain, 502). A model that invents tools is not
/// fit for the request, so the routing layer may escalate to a stronger model, and a scenario's
/// skill boundary is never crossed by text the client might execute. `<tool_call>` tags around
/// something that is not a call fail the same way with `malformedToolCallCode`. A ```json fence
/// that is not a call to an offered tool stays text (it is usually an example in the answer), and so
/// does a `<tool_call>` never closed whose text does not start with `{` or a ```json fence (prose about
/// the tag). An answer the length limit cut inside a call keeps finish reason `length`, without the
/// unfinished call (decision 0111).
public struct PromptToolsClient: LLMClient {
    /// The text-only model that does the work.
    public let inner: any LLMClient
    /// The provider named in errors.
    public let providerId: String?

    /// Wraps `inner`; `providerId` names the provider in errors.
    public init(inner: any LLMClient, providerId: String? = nil) {
        self.inner = inner
        self.providerId = providerId
    }

    /// The text-only request sent to the inner model for `request` (exposed for route explanations
    /// and tests). Throws when `tool_choice` names a tool the request does not have.
    public func innerRequest(for request: ChatRequest) throws -> ChatRequest {
        try PromptToolsRenderer.prepare(request).request
    }

    public func complete(_ request: ChatRequest) async throws -> ChatResponse {
        let prepared = try PromptToolsRenderer.prepare(request)
        let response = try await inner.complete(prepared.request)
        var parser = PromptToolStreamParser(offeredTools: prepared.offeredTools, provider: providerId)
        var acc = ChatResponseAccumulator()
        do {
            for block in response.content {
                switch block {
                case .text(let text): try parser.feed(text).forEach { acc.apply($0) }
                case .thinking(let thinking):
                    if let data = thinking.redactedData {
                        acc.apply(.redactedThinking(data))
                    } else {
                        acc.apply(.thinkingDelta(thinking.text))
                        if let signature = thinking.signature { acc.apply(.thinkingSignature(signature)) }
                    }
                default: break  // the inner request has no tools, so there are no native calls to keep
                }
            }
            try parser.finish(truncated: response.finishReason == .length).forEach { acc.apply($0) }
        } catch {
            throw Self.withUsage(error, response.usage, estimated: false)  // a malformed call was paid for (decision 0120)
        }
        return ChatResponse(id: response.id, model: response.model, content: acc.content,
                            finishReason: parser.finishReason(response.finishReason),
                            usage: response.usage)
    }

    /// Streams the inner model's answer with tool calls parsed out of the text. Text that may be the start of a
    /// `<tool_call>` tag is held back until it is known not to be one, and so is the answer's `start` (and a usage
    /// reported before any content) until the first content event: a malformed call at the start of the answer (the
    /// usual place of a call) then fails the stream before its first event, so the executor tries it again (decision
    /// 0120). Its usage is the one reported so far, or else estimated from the text sent and read (decision 0104): the
    /// inner stream is closed at once rather than read on, which would let the model generate (and bill) more.
    /// The stream ends with the inner answer, complete (`PromptToolsInnerAnswer`), even when the inner stream stays open
    /// after it (decision 0160).
    public func stream(_ request: ChatRequest) -> AsyncThrowingStream<ChatStreamEvent, any Error> {
        let inner = self.inner
        let providerId = self.providerId
        return AsyncThrowingStream { continuation in
            // On the server event loop that asked, when one did: the inner stream then runs there too.
            let task = Task(executorPreference: ServerEventLoops.currentExecutor) {
                var spent = PromptToolsSpend()
                do {
                    let prepared = try PromptToolsRenderer.prepare(request)
                    spent.inputBytes = UsageEstimate.inputBytes(of: prepared.request)
                    var parser = PromptToolStreamParser(offeredTools: prepared.offeredTools, provider: providerId)
                    var held = PromptToolsHeldEvents()
                    var finished = false
                    // Read up to the complete answer, not to the end of a stream its upstream may keep open (decision 0160).
                    var answer = PromptToolsInnerAnswer(inner.events(prepared.request))
                    while let event = try await answer.next() {
                        switch event {
                        case .textDelta(let text):
                            spent.outputBytes += text.utf8.count
                            held.send(try parser.feed(text), continuation)
                        case .finish(let reason):
                            var out = finished ? [] : try parser.finish(truncated: reason == .length)
                            finished = true
                            out.append(.finish(parser.finishReason(reason)))
                            held.send(out, continuation)
                        case .start, .usage:
                            if case .usage(let u) = event { spent.reported = u }
                            held.hold(event, continuation)
                        default:
                            if case .thinkingDelta(let t) = event { spent.outputBytes += t.utf8.count }
                            held.send([event], continuation)
                        }
                    }
                    if !finished { held.send(try parser.finish(), continuation) }
                    held.release(continuation)
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()  // the consumer went away; nobody waits for an error
                } catch {
                    continuation.finish(throwing: Self.withUsage(error, spent.usage, estimated: spent.reported == nil))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
