import Testing
import SkillGateCore
@testable import SkillGateProviders

/// A `<tool_call>` the gateway cannot read is a failed answer (decision 0120): `GatewayError.failedAnswer` with the
/// reason `malformed_tool_call` and what the attempt used, whole and streamed; streamed, it fails before the stream's
/// first event when nothing of the answer came before it, so the executor can try it again.
@Suite struct PromptToolsFailedAnswerTests {
    private let request = ChatRequest(model: "m", messages: [Message(role: .user, text: "Weather in Kyōto?")],
                                      tools: [PromptToolsTesting.weather])
    static let malformed = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Kyōto\"\n</tool_call>"

    @Test func aWholeAnswerWithAMalformedCallIsAFailedAnswerWithItsUsage() async throws {
        let inner = PromptToolsTextModel(Self.malformed)
        let error = await #expect(throws: GatewayError.self) { try await PromptToolsClient(inner: inner, providerId: "ollama").complete(request) }
        #expect(error?.failedAnswer == GatewayError.FailedAnswer(reason: .malformedToolCall, usage: inner.usage))
        #expect(error?.clientCode == "malformed_tool_call" && error?.upstreamCode == PromptToolsClient.malformedToolCallCode)
        #expect(error?.status == 502 && error?.domain == .provider && error?.provider == "ollama")
        let message = error?.message ?? ""
        #expect(message.contains("Retry the request") && message.contains("simplify the tool schemas")
                    && message.contains("native tool calling"), "\(message)")
    }

    @Test(arguments: [1, 4, 1000])
    func aStreamThatStartsWithAMalformedCallFailsBeforeItsFirstEvent(pieceLength: Int) async throws {
        let inner = PromptToolsTextModel(Self.malformed, pieceLength: pieceLength)
        let client = PromptToolsClient(inner: inner, providerId: "ollama")
        var iterator = client.stream(request).makeAsyncIterator()
        let error = await #expect(throws: GatewayError.self) { _ = try await iterator.next() }
        let failed = try #require(error?.failedAnswer)
        #expect(failed.reason == .malformedToolCall)
        // Its usage came after the call (as providers send it): estimated from the prompt sent and the text read.
        #expect(failed.usageEstimated)
        let prompt = UsageEstimate.tokens(bytes: UsageEstimate.inputBytes(of: try client.innerRequest(for: request)))
        #expect(failed.usage == Usage(inputTokens: prompt, outputTokens: UsageEstimate.tokens(bytes: Self.malformed.utf8.count)))
    }

    @Test func aStreamWhoseUsageCameBeforeTheMalformedCallKeepsIt() async throws {
        let inner = EventsModel(events: [.start(id: "r", model: "m"), .usage(Usage(inputTokens: 40, outputTokens: 2)),
                                         .textDelta(Self.malformed), .finish(.stop)])
        var iterator = PromptToolsClient(inner: inner).stream(request).makeAsyncIterator()
        let error = await #expect(throws: GatewayError.self) { _ = try await iterator.next() }
        #expect(error?.failedAnswer == GatewayError.FailedAnswer(reason: .malformedToolCall, usage: Usage(inputTokens: 40, outputTokens: 2)))
    }

    /// The inner model's own failed answer (a Gemini model behind the adapter) keeps the usage its provider reported.
    @Test func anInnerFailedAnswerKeepsItsOwnUsage() async throws {
        let gemini = GatewayError.failedAnswer(.malformedFunctionCall, usage: Usage(inputTokens: 2595, outputTokens: 0), message: "x",
                                               provider: "google", upstreamCode: "MALFORMED_FUNCTION_CALL")
        var iterator = PromptToolsClient(inner: EventsModel(events: [], error: gemini)).stream(request).makeAsyncIterator()
        let error = await #expect(throws: GatewayError.self) { _ = try await iterator.next() }
        #expect(error?.failedAnswer == GatewayError.FailedAnswer(reason: .malformedFunctionCall, usage: Usage(inputTokens: 2595, outputTokens: 0)))
    }

    /// Text before the call went out first: the failure ends the stream after it (nothing can be tried again).
    @Test func textBeforeAMalformedCallIsSentFirst() async throws {
        let client = PromptToolsClient(inner: PromptToolsTextModel("Let me check.\n" + Self.malformed, pieceLength: 5))
        var events: [ChatStreamEvent] = []
        let error = await #expect(throws: GatewayError.self) {
            for try await event in client.stream(request) { events.append(event) }
        }
        #expect(error?.failedAnswer?.reason == .malformedToolCall)
        #expect(events.first == .start(id: "resp-1", model: "text-model"))
        #expect(PromptToolsTesting.fold(events).text == "Let me check.")
    }

    /// Guard: holding the start back does not change a good stream's events or their order.
    @Test(arguments: [1, 1000])
    func aGoodStreamStillStartsWithItsStart(pieceLength: Int) async throws {
        let client = PromptToolsClient(inner: PromptToolsTextModel("<tool_call>{\"name\": \"get_weather\", \"arguments\": {}}</tool_call>", pieceLength: pieceLength))
        var events: [ChatStreamEvent] = []
        for try await event in client.stream(request) { events.append(event) }
        #expect(events.first == .start(id: "resp-1", model: "text-model"))
        #expect(events.last == .usage(Usage(inputTokens: 11, outputTokens: 7)))
        #expect(PromptToolsTesting.fold(events).toolCalls.map(\.name) == ["get_weather"])
        let empty = PromptToolsClient(inner: EventsModel(events: [.start(id: "r", model: "m"), .finish(.stop)]))
        var out: [ChatStreamEvent] = []
        for try await event in empty.stream(request) { out.append(event) }
        #expect(out == [.start(id: "r", model: "m"), .finish(.stop)])
    }

    /// Guard: a call to a tool that was not offered stays what it was (not a failed answer: it is not tried again).
    @Test func aCallToAToolNotOfferedIsNotAFailedAnswer() async throws {
        let client = PromptToolsClient(inner: PromptToolsTextModel("<tool_call>{\"name\": \"rm_rf\", \"arguments\": {}}</tool_call>"))
        let error = await #expect(throws: GatewayError.self) { try await client.complete(request) }
        #expect(error?.upstreamCode == PromptToolsClient.toolNotOfferedCode && error?.failedAnswer == nil)
        #expect(error?.message.contains("offer that tool in the request") == true, "\(error?.message ?? "")")
    }
}

/// A text-only model that streams the given events as they are, then ends with `error` when one is given.
private struct EventsModel: LLMClient {
    var events: [ChatStreamEvent]
    var error: GatewayError?

    func complete(_ request: ChatRequest) async throws -> ChatResponse {
        var acc = ChatResponseAccumulator()
        events.forEach { acc.apply($0) }
        return acc.response
    }

    func stream(_ request: ChatRequest) -> AsyncThrowingStream<ChatStreamEvent, any Error> {
        let events = self.events
        return AsyncThrowingStream { continuation in
            for event in events { continuation.yield(event) }
            continuation.finish(throwing: error)
        }
    }
}
