import SkillGateCore
import SkillGateRouting
import SkillGateSkills

/// A streamed answer committed to one deployment (its first event already arrived), or an answer
/// the execute stage buffered whole to check it and now replays. Tool calls are remembered for
/// stickiness as they stream by; the deployment's in-flight count drops when the stream is
/// finished or dropped. The stream tells the deployment's health how it ended (decision 0107): its
/// end is the attempt's success, an error read from the upstream counts against the deployment as a
/// failed attempt would, and a stream finished or dropped before its end (the client left, the token
/// was revoked) tells nothing. Whoever reads it (the chat relay, the agent runner) need not know. With `offered` set, a call to a tool not in it ends the stream with the
/// invisible-call error instead of being handed on.
struct UpstreamStream {
    /// The deployment answering.
    let target: RouteTarget
    private var pending: ChatStreamEvent?
    private var started = false
    /// The stream's end was seen (by `next()` or `nextIfReady()`), or a complete answer's stream was let go (`letGo()`).
    private(set) var ended = false
    /// Whether the answer is complete, its stream ended or not (decision 0154).
    private var completion = AnswerCompletion()
    private var iterator: ChatEventIterator?
    private var replay: IndexingIterator<[ChatStreamEvent]>?
    private let lease: CallLease?
    private let affinity: ToolCallAffinity
    /// The invisible-call rule: the names of the tools the model was shown (in order, for the message; scanned when a
    /// call starts, as `AnswerInspector` does, or looked up in `lookup` when there are many), and the scenario. Names
    /// only: a held stream does not keep the tools' schemas (decision 0036).
    var offered: (names: [String], lookup: Set<String>?, scenario: String)?
    /// The request said `parallel_tool_calls: false`: only the answer's first tool call is handed on, the events of any
    /// later one are dropped (`SingleToolCall`, decision 0135).
    var singleToolCall: SingleToolCall?
    /// The answer's size so far: past its bound (`limits.max_answer_mib`) the stream ends with its error (decision 0155).
    private var size: AnswerSizeLimit

    /// The invisible-call rule for `names` in `scenario`: a set of them only when scanning could cost more.
    static func offering(_ names: [String], scenario: String) -> (names: [String], lookup: Set<String>?, scenario: String) {
        (names, names.count > AnswerInspector.scanLimit ? Set(names) : nil, scenario)
    }

    init(target: RouteTarget, pending: ChatStreamEvent?, iterator: ChatEventIterator,
         lease: CallLease, affinity: ToolCallAffinity, maxAnswerBytes: Int = AnswerSizeLimit.defaultMaxBytes) {
        size = AnswerSizeLimit(maxBytes: maxAnswerBytes)
        self.target = target
        self.pending = pending
        self.iterator = iterator
        self.lease = lease
        self.affinity = affinity
    }

    /// A stream that replays `events` (already read whole from `target`).
    init(replaying events: [ChatStreamEvent], target: RouteTarget, affinity: ToolCallAffinity) {
        size = AnswerSizeLimit()
        self.target = target
        replay = events.makeIterator()
        started = true
        iterator = nil
        lease = nil
        self.affinity = affinity
    }

    /// The next event (the first one first), or `nil` at the end. Errors are not retried.
    mutating func next() async throws -> ChatStreamEvent? {
        while true {
            let event: ChatStreamEvent?
            if replay != nil {
                event = replay!.next()
            } else if !started {
                started = true
                event = pending
            } else {
                do {
                    event = try await iterator?.next(isolation: #isolation)
                    // The iterator ends a cancelled task's stream with nil: the client left, which is not the stream's
                    // end (no success for the deployment, no normal end for the reply).
                    if event == nil, Task.isCancelled { throw CancellationError() }
                } catch {
                    settle(failed: error)
                    throw error
                }
            }
            if let event, singleToolCall?.drops(event) == true { continue }
            return try handOn(event)
        }
    }

    /// The next event when it is known without waiting (read with the ones before it): the event, `.some(nil)` at the
    /// end, or nil when only `next()` can tell. The same rules as `next()`; call it after the first `next()`.
    mutating func nextIfReady() throws -> ChatStreamEvent?? {
        while true {
            let ready: ChatStreamEvent??
            if replay != nil {
                ready = .some(replay!.next())
            } else if !started {
                return nil
            } else if iterator == nil {
                ready = .some(nil)
            } else {
                do {
                    ready = try iterator!.nextIfReady()
                    if case .some(nil) = ready, Task.isCancelled { throw CancellationError() }
                } catch {
                    settle(failed: error)
                    throw error
                }
            }
            guard let event = ready else { return nil }
            if let event, singleToolCall?.drops(event) == true { continue }
            return .some(try handOn(event))
        }
    }

    /// The answer is complete (decision 0154): its finish and the usage after it were read, or `closeWithoutUsage()`.
    /// Its stream may still be open: `letGo()` ends it.
    var answerComplete: Bool { completion.complete }

    /// Whether `nextIfReady()` tells what arrived without waiting (a replay and an adapter's own reader do; an
    /// `AsyncThrowingStream` never does).
    var tellsReadiness: Bool { replay != nil || (iterator?.tellsReadiness ?? true) }

    /// The usage did not come within its hold after the finish (`ChatEncoding.finishHeldForUsage`): the answer is
    /// complete without it.
    mutating func closeWithoutUsage() { completion.closeWithoutUsage() }

    /// The next event of the answer, or nil at its end: the stream's, or the answer's once it is complete (decision 0154).
    /// After the finish, the usage is waited for at most `AnswerCompletion.usageAwaited` from a source that tells what
    /// arrived. `letGo()` ends a stream that is still open after the answer.
    mutating func nextOfAnswer() async throws -> ChatStreamEvent? {
        if completion.complete { return nil }
        guard completion.finished, tellsReadiness else { return try await next() }
        let until = ContinuousClock.now.advanced(by: AnswerCompletion.usageAwaited)
        if let told = try await AnswerCompletion.nextReady(until: until, { try self.nextIfReady() }) { return told }
        try Task.checkCancellation()
        completion.closeWithoutUsage()
        return nil
    }

    /// Lets go of a complete answer's stream (decision 0154) and returns what it read meanwhile (a usage again, changed):
    /// reads on for its end for at most `AnswerCompletion.endAwaited`, so the upstream connection is kept when the end
    /// comes at once, as it nearly always does; then, or at once when the source cannot tell what arrived, the stream is
    /// dropped, which closes a transfer left mid-body (its connection is not reused). Either way the answer was whole:
    /// the deployment's success, and a failure read after it is not the deployment's (nor the client's).
    mutating func letGo() async -> [ChatStreamEvent] {
        var after: [ChatStreamEvent] = []
        if !ended, tellsReadiness {
            let deadline = ContinuousClock.now.advanced(by: AnswerCompletion.endAwaited)
            while let told = try? await AnswerCompletion.nextReady(until: deadline, { try self.nextIfReady() }) {
                guard let event = told else { break }
                after.append(event)
            }
        }
        if !ended {
            lease?.streamSucceeded()
            ended = true
            iterator = nil
            finish()
        }
        return after
    }

    /// Tells the deployment's health how a stream that threw `error` went, and releases it: a failure after the answer
    /// was complete is not the deployment's (decision 0154).
    private func settle(failed error: any Error) {
        if completion.complete { lease?.streamSucceeded() } else { lease?.streamFailed(error) }
        finish()
    }

    /// What both `next()` and `nextIfReady()` do with an event before handing it on: the end is the deployment's
    /// success and releases it, a call to a tool the model was not shown ends the stream (the invisible-call rule; the
    /// deployment answered, so that too is its success), a call is remembered for stickiness.
    private mutating func handOn(_ event: ChatStreamEvent?) throws -> ChatStreamEvent? {
        guard let event else {
            ended = true
            lease?.streamSucceeded()
            finish()
            return nil
        }
        do {
            try size.count(event, from: target)
        } catch {
            // A deployment streaming without end is failing: counted against its health, as a broken stream is.
            lease?.streamFailed(error)
            finish()
            throw error
        }
        if case .toolCallStart(_, _, let name) = event, let offered, !(offered.lookup?.contains(name) ?? offered.names.contains(name)) {
            lease?.streamSucceeded()
            finish()
            throw AnswerCheck.invisibleCall(name, shown: offered.names, provider: target.provider.id, scenario: offered.scenario)
        }
        noteToolCall(event)
        completion.note(event)
        return event
    }

    /// Releases the deployment's in-flight slot (idempotent).
    func finish() { lease?.release() }

    func noteToolCall(_ event: ChatStreamEvent?) {
        if case .toolCallStart(_, let id, _) = event { affinity.remember(id, deployment: target.qualifiedName) }
    }
}
