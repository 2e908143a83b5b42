import SkillGateCore
import SkillGateRouting

extension RouteExecutor {
    /// Reads the rest of a stream that is checked whole before anything is sent (an escalating model's) into `events`,
    /// which hold its `first` event: to its end, or until its answer is complete (decision 0154), the usage waited for
    /// after the finish as briefly as a relayed stream's (`AnswerCompletion.usageAwaited`). A complete answer's stream
    /// that stays open is read on for its end only briefly (`AnswerCompletion.endAwaited`); the caller then drops it.
    /// Before, a complete answer whose stream stayed open was read until the upstream's idle timeout, then thrown away
    /// for the fallback's. A source that cannot tell what arrived (an `AsyncThrowingStream`) is read to its end.
    static func readWhole(after first: ChatStreamEvent, of iterator: inout ChatEventIterator, into events: inout [ChatStreamEvent],
                          from target: RouteTarget, maxBytes: Int) async throws {
        var completion = AnswerCompletion()
        completion.note(first)
        // Held whole, so bounded (decision 0155).
        var size = AnswerSizeLimit(maxBytes: maxBytes)
        try size.count(first, from: target)
        let polls = iterator.tellsReadiness
        while !completion.complete {
            let next: ChatStreamEvent?
            if completion.finished, polls {
                let until = ContinuousClock.now.advanced(by: AnswerCompletion.usageAwaited)
                guard let told = try await AnswerCompletion.nextReady(until: until, { try iterator.nextIfReady() }) else {
                    completion.closeWithoutUsage()
                    break
                }
                next = told
            } else {
                next = try await iterator.next()
            }
            guard let next else { return }
            try size.count(next, from: target)
            events.append(next)
            completion.note(next)
        }
        guard polls else { return }
        // Complete: what comes until its end, if that is soon (a usage again); a failure after it does not matter.
        let until = ContinuousClock.now.advanced(by: AnswerCompletion.endAwaited)
        while let told = try? await AnswerCompletion.nextReady(until: until, { try iterator.nextIfReady() }), let next = told {
            try size.count(next, from: target)
            events.append(next)
        }
    }
}
