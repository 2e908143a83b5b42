import SkillGateClient

/// The terminal chat: reads a line, runs slash commands, sends questions to `/v1/agent` with the
/// conversation so far and renders the answer as it streams.
///
/// Ctrl-C handling is split: whoever owns SIGINT calls `interrupts.interrupt()`; during an answer
/// that cancels the answer's Task (the HTTP transfer is aborted, so the server cancels the run)
/// and the chat returns to the prompt. At the prompt, `interrupt()` returns false and the owner exits.
public struct ChatLoop: Sendable {
    public let transport: any AgentTransport
    public let input: any ChatLineReader
    public let output: any ChatOutput
    public let interrupts: ChatInterrupts
    /// The conversation, scenario and model as they are when `run()` starts.
    public var session: ChatSession

    public init(transport: any AgentTransport, input: any ChatLineReader, output: any ChatOutput,
                interrupts: ChatInterrupts = ChatInterrupts(), session: ChatSession = ChatSession()) {
        self.transport = transport
        self.input = input
        self.output = output
        self.interrupts = interrupts
        self.session = session
    }

    /// Runs until `/quit` or the end of input. Returns the exit status (0).
    public mutating func run() async -> Int32 {
        while true {
            guard let line = await input.readLine(prompt: "> ") else {
                output.write("\n")
                return 0
            }
            let parsed = ChatInput.parse(line)
            switch parsed {
            case .empty:
                continue
            case .message(let question):
                let result = await answer(question)
                session.record(question: question, result: result)
            default:
                switch session.apply(parsed) {
                case .quit: return 0
                case .say(let text): if !text.isEmpty { output.write(text + "\n") }
                }
            }
        }
    }

    /// Sends one question and renders its answer until the run ends, fails or is stopped.
    public func answer(_ question: String) async -> TurnResult {
        let request = session.request(asking: question)
        let transport = self.transport
        let output = self.output
        let task = Task { () -> TurnResult in
            var renderer = ChatRenderer()
            var text = ""
            var ending = TurnEnding.transportError(
                "the answer ended before the run finished (no run.completed); check the SkillGate log")
            do {
                for try await event in transport.run(request) {
                    if case .textDelta(let delta) = event { text += delta.text }
                    output.write(renderer.render(event))
                    if case .runCompleted = event { ending = .completed; break }
                    if case .runFailed = event { ending = .failed; break }
                }
                if Task.isCancelled { ending = .stopped }
            } catch {
                if Task.isCancelled || error is CancellationError {
                    ending = .stopped
                } else if let refused = error as? AgentRequestError {
                    ending = .transportError(refused.message)
                } else if let failed = error as? SkillGateClientError {
                    ending = .transportError(AgentRequestError(failed).message)
                } else {
                    ending = .transportError("the answer broke off: \(error)")
                }
            }
            output.write(renderer.render(ending))
            return TurnResult(text: text, ending: ending)
        }
        interrupts.beginTurn { task.cancel() }
        let result = await task.value
        interrupts.endTurn()
        return result
    }
}
