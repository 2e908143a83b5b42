import SkillGateChat
import SkillGateCore
import Testing

@Suite("ChatLoop")
struct ChatLoopTests {
    static let answerTime: ScriptedTransport.Script = { _, c in
        c.yield(ScriptedTransport.event("skill.started", ["call_id": "c1", "skill": "current_time", "arguments": ["timezone": "UTC"]]))
        c.yield(ScriptedTransport.event("skill.finished", ["call_id": "c1", "skill": "current_time", "ok": true, "duration_ms": 3]))
        c.yield(ScriptedTransport.event("text.delta", ["text": "07:55 UTC."]))
        c.yield(ScriptedTransport.event("run.completed", ["finish_reason": "stop", "usage": ["input_tokens": 1, "output_tokens": 2], "cost_usd": 0]))
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
        #expect(transport.requests[1]["model"] == "strong")
        #expect(transport.requests[1]["messages"]?.arrayValue?.count == 3)
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
            c.yield(ScriptedTransport.event("text.delta", ["text": "Once upon"]))  // then nothing, until cancelled
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
            func start(_ body: JSONValue) async throws -> AgentEventSequence {
                throw AgentRequestError(status: 401, message: "HTTP 401: invalid token")
            }
        }
        let output = RecordingOutput()
        let refused = await ChatLoop(transport: Refusing(), input: ScriptedReader([], output: output), output: output).answer("hi")
        #expect(refused.ending == .transportError("HTTP 401: invalid token"))
        #expect(output.all == "✗ HTTP 401: invalid token\n")

        let cut = RecordingOutput()
        let early = ScriptedTransport { _, c in
            c.yield(ScriptedTransport.event("text.delta", ["text": "Hal"]))
            c.finish()
        }
        let result = await ChatLoop(transport: early, input: ScriptedReader([], output: cut), output: cut).answer("hi")
        #expect(result.text == "Hal")
        #expect(cut.all.hasPrefix("Hal\n✗ the answer ended before the run finished"))
    }
}
