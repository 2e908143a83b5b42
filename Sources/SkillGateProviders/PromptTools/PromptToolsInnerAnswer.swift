import SkillGateCore

/// The inner model's answer as the prompt-tools adapter reads it: its events until its stream ends, or until the answer is
/// complete (decision 0160) — its finish and the usage after it, or its finish and then the usage's hold
/// (`AnswerCompletion.usageAwaited`) without one, from a source that tells what arrived (`ChatEventIterator.tellsReadiness`:
/// the HTTP adapters' readers). The inner stream is then let go of: what already arrived is read (a usage again, or the
/// end, which keeps the connection), nothing more is waited for.
///
/// Before, the adapter read its inner stream to its end, so an upstream that kept its stream open after the answer (no
/// `[DONE]`, comments only) held the adapter's own end, and with it the client's stream, until the upstream's idle
/// timeout: the gateway's readers stop at a complete answer (decision 0154), but behind the adapter they saw only a
/// stream that could not tell what had arrived, and without a usage never completed.
struct PromptToolsInnerAnswer {
    private var iterator: ChatEventIterator?
    private var completion = AnswerCompletion()
    /// What was read after the answer was complete, handed on before the end.
    private var after: [ChatStreamEvent] = []

    init(_ iterator: ChatEventIterator) {
        self.iterator = iterator
    }

    /// The next event of the answer, or nil at its end (the stream's, or the answer's). A task cancelled while it waits
    /// throws `CancellationError` rather than ending the answer as if it were whole.
    mutating func next() async throws -> ChatStreamEvent? {
        if !after.isEmpty { return after.removeFirst() }
        guard iterator != nil else { return nil }
        if completion.complete {
            letGo()
            return after.isEmpty ? nil : after.removeFirst()
        }
        let event: ChatStreamEvent?
        if completion.finished, iterator!.tellsReadiness {
            let until = ContinuousClock.now.advanced(by: AnswerCompletion.usageAwaited)
            guard let told = try await AnswerCompletion.nextReady(until: until, { try self.iterator!.nextIfReady() }) else {
                try Task.checkCancellation()
                completion.closeWithoutUsage()
                iterator = nil  // the usage did not come: the stream is dropped
                return nil
            }
            event = told
        } else {
            event = try await iterator!.next()
        }
        guard let event else {
            // The iterator ends a cancelled task's stream with nil: the consumer left, which is not the answer's end.
            try Task.checkCancellation()
            iterator = nil
            return nil
        }
        completion.note(event)
        return event
    }

    /// Reads what already arrived after the complete answer (a changed usage; the end), then drops the stream.
    private mutating func letGo() {
        while let ready = try? iterator?.nextIfReady(), let event = ready {
            if case .usage = event { after.append(event) }
        }
        iterator = nil
    }
}
