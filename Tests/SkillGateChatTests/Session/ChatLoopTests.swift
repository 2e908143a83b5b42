import SkillGateChat
import SkillGateClient
import Testing

@Suite("ChatLoop")
struct ChatLoopTests {
    static let answerTime: ScriptedTransport.Script = { _, c in
        c.yield(Events.skillStarted("c1", "current_time", ["timezone": "UTC"]))
        c.yield(Events.skillFinished("c1", "current_time", ok: true, ms: 3))
        c.yield(Events.text("07:55 UTC."))
        c.yield(Events.completed(input: 1, output: 2))
        c.finish()
    }

    @Test func questionsStreamCommandsApplyAndTheConversationCarriesOver() async {
        let output = RecordingOutput()
        let transport = ScriptedTransport(Self.answerTime)
        var loop = ChatLoop(transport: transport,
                            input: ScriptedReader(["what time?", "/model strong", "/frob", "and now?", "/quit", "never read"], output: output),
                            output: output)
        #expect(await loop.run() == 0)
        #expect(output.all == """
        > ⚙ current_time {"timezone":"UTC"} … ✓ 3 ms
        07:55 UTC.
          [1 in / 2 out tokens · $0]
        > model: strong
        > unknown command /frob; type /help for the commands, or start the line with // to send it as text
        > ⚙ current_time {"timezone":"UTC"} … ✓ 3 ms
        07:55 UTC.
          [1 in / 2 out tokens · $0]
        > 
        """)
        #expect(transport.requests.count == 2)
        #expect(transport.requests[1].model == "strong")
        #expect(transport.requests[1].messages.count == 3)
    }

    @Test func endOfInputLeavesWithZero() async {
        let output = RecordingOutput()
        var loop = ChatLoop(transport: ScriptedTransport(Self.answerTime), input: ScriptedReader([], output: output), output: output)
        #expect(await loop.run() == 0)
        #expect(output.all == "> \n")
    }

    @Test func interruptStopsTheAnswerCancelsTheStreamAndKeepsThePartialText() async throws {
        let output = RecordingOutput()
        let transport = ScriptedTransport { _, c in
            c.yield(Events.text("Once upon"))  // then nothing, until cancelled
        }
        let interrupts = ChatInterrupts()
        let loop = ChatLoop(transport: transport, input: ScriptedReader([], output: output), output: output, interrupts: interrupts)
        #expect(!interrupts.interrupt(), "no answer is streaming yet: Ctrl-C means leave")
        async let result = loop.answer("a story")
        let deadline = ContinuousClock.now + .seconds(5)
        while !output.all.contains("Once upon"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(interrupts.interrupt())
        #expect(await result == TurnResult(text: "Once upon", ending: .stopped))
        #expect(output.all == "Once upon\n⏹ stopped\n")
        #expect(transport.cancelledStreams == 1)
        #expect(!interrupts.interrupt(), "after the answer, Ctrl-C goes back to meaning leave")
    }

    @Test func refusedRequestAndEarlyEndAreReported() async {
        struct Refusing: AgentTransport {
            func run(_ request: AgentRequest) -> AsyncThrowingStream<AgentEvent, any Error> {
                AsyncThrowingStream { $0.finish(throwing: SkillGateClientError.unauthorized(message: "invalid token")) }
            }
        }
        let output = RecordingOutput()
        let refused = await ChatLoop(transport: Refusing(), input: ScriptedReader([], output: output), output: output).answer("hi")
        let worded = "HTTP 401: invalid token; check --token / SKILLGATE_TOKEN (create one with `skillgate tokens create --name me`)"
        #expect(refused.ending == .transportError(worded))
        #expect(output.all == "✗ \(worded)\n")

        let cut = RecordingOutput()
        let early = ScriptedTransport { _, c in
            c.yield(Events.text("Hal"))
            c.finish()
        }
        let result = await ChatLoop(transport: early, input: ScriptedReader([], output: cut), output: cut).answer("hi")
        #expect(result.text == "Hal")
        #expect(cut.all.hasPrefix("Hal\n✗ the answer ended before the run finished"))
    }
}
