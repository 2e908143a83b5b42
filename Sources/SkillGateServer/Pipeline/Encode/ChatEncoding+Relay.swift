import SkillGateCore
import SkillGateRouting

/// A streamed answer being relayed: the upstream's events, the surface's encoder, and the usage the events reported.
/// Nothing is retried once it exists: bytes reached, or are about to reach, the client.
struct OpenRelay {
    var upstream: UpstreamStream
    let recheck: TokenRecheck
    /// The deployment the stream's head was prepared for (`SSEResponse.prepareHeaders`), if any.
    let headPreparedFor: RouteTarget?
    var encoder: any SurfaceStreamEncoder
    /// What the stream used so far: the usage it reported, or an estimate (decision 0104).
    var spend: StreamSpend
    /// The answer as relayed so far, kept in the response cache once the stream ended normally; nil when the request may
    /// not write the cache (decision 0140).
    var cacheWrite: ResponseCacheWrite?
}

/// The relay of a streamed answer, in two parts (decision 0063).
///
/// `relayFirst` runs in the request's setup task: it starts the stream and relays the first event, with every event
/// that arrived with it, while the setup's state (the decoded request, the prepared call) still lives. When more is to
/// come, it has them sent at once: the client's first bytes leave before that state is freed and before the setup task
/// ends. An answer that arrived whole is relayed whole there and leaves in one send at the end of the loop's batch of
/// jobs, with no relay left for the handler's task (sending such an end at once, before the request is accounted for,
/// measured ~40 µs later first events on the next streams, decision 0063). `relayRest` runs in the handler's own task
/// for the stream's life. The token is re-checked about once a second (at the next chunk): revoked, the stream ends with
/// the surface's error event.
extension ChatEncoding {
    /// Starts the stream and relays its first event and those that arrived with it; when more is to come, has them
    /// sent. False when that also ended the request (the stream ended with them, or the client, the upstream or the
    /// token failed): it was accounted for, and there is nothing left to relay.
    @inline(never)
    func relayFirst(_ relay: inout OpenRelay, _ ctx: inout RequestContext) async -> Bool {
        do {
            try await Self.startStream(relay.headPreparedFor, &ctx)
            if try await relayNext(&relay, &ctx) {
                while let ready = try relay.upstream.nextIfReady() {
                    guard let event = ready else { break }
                    if Self.holdsForUsage(event, relay) {
                        guard try await relayHoldingForUsage(event, &relay, &ctx) else { break }
                        continue
                    }
                    try await relayEvent(event, &relay, &ctx)
                }
                if !relay.upstream.ended {
                    ctx.responder.sendQueuedNow()
                    return true
                }
            }
            try await finishStream(&relay, &ctx)
        } catch {
            relay.spend.ended(by: error)
            await relayFailed(error, relay.encoder, &ctx)
        }
        relay.upstream.finish()
        relayEnded(relay, &ctx)
        return false
    }

    /// Relays the events after the first to the client's end, then accounts for the request. A complete answer whose
    /// stream stays open ends the client's stream normally at once; its upstream is let go after (decision 0154).
    func relayRest(_ relay: inout OpenRelay, _ ctx: inout RequestContext) async {
        defer { relay.upstream.finish() }
        do {
            while try await relayNext(&relay, &ctx) {}
            try await finishStream(&relay, &ctx)
            if !relay.upstream.ended { await letGoOfCompleteAnswer(&relay) }
        } catch {
            relay.spend.ended(by: error)
            await relayFailed(error, relay.encoder, &ctx)
        }
        relayEnded(relay, &ctx)
    }

    /// Relays the next event; false at the stream's end, or once the answer is complete (what came with it relayed too,
    /// nothing more waited for: decision 0154).
    private func relayNext(_ relay: inout OpenRelay, _ ctx: inout RequestContext) async throws -> Bool {
        if relay.upstream.answerComplete {
            // What arrived with the answer's last events (the stream's end, nearly always) is relayed; a failure read
            // after a complete answer does not end it with an error.
            while let ready = try? relay.upstream.nextIfReady(), let event = ready { try await relayEvent(event, &relay, &ctx) }
            return false
        }
        guard let event = try await relay.upstream.next() else { return false }
        if Self.holdsForUsage(event, relay) { return try await relayHoldingForUsage(event, &relay, &ctx) }
        try await relayEvent(event, &relay, &ctx)
        return true
    }

    /// Whether `event` is the answer's finish with no usage reported yet: it is held until the usage comes, briefly
    /// (decision 0146). A client that left on reading its `finish_reason` used to end the stream (the upstream transfer with it)
    /// before the provider's usage chunk, which follows it, was read, and was charged only an estimate of the text
    /// relayed: nothing for a reasoning model's hidden tokens, whatever the provider billed.
    private static func holdsForUsage(_ event: ChatStreamEvent, _ relay: OpenRelay) -> Bool {
        if case .finish = event, relay.spend.reported == nil { return true }
        return false
    }

    /// How long a finish is held for the usage that follows it. A provider sends its usage at once after its finish (in
    /// the same read, nearly always), or not at all; one that keeps the stream open after its finish without it (or
    /// with comments only) must not hold the answer's last events back for its idle or total timeout.
    static var finishHeldForUsage: Duration { AnswerCompletion.usageAwaited }

    /// Reads on after the held `finish` until the usage or the stream's end, for at most `finishHeldForUsage`, then relays
    /// what came in order. When the usage did not come in time, the answer is complete without it (decision 0154), from
    /// a source that tells what arrived; from one that cannot (an `AsyncThrowingStream`: the demo model, prompt tools),
    /// the relay goes on as before. False when the stream ended.
    private func relayHoldingForUsage(_ finish: ChatStreamEvent, _ relay: inout OpenRelay, _ ctx: inout RequestContext) async throws -> Bool {
        var held = [finish]
        var ended = false
        let until = ContinuousClock.now.advanced(by: Self.finishHeldForUsage)
        do {
            waiting: while true {
                if let ready = try relay.upstream.nextIfReady() {
                    guard let next = ready else { ended = true; break waiting }
                    held.append(next)
                    if case .usage = next { break waiting }
                    continue
                }
                // Nothing read yet: look again shortly, until the hold's end or the client leaves (then the usage is no
                // longer what the client waits for, and the stream is charged as one the client left).
                guard ContinuousClock.now < until, !Task.isCancelled else { break waiting }
                try? await Task.sleep(for: .milliseconds(2))
            }
        } catch {
            // What came before the failure reaches the client first, as it would have unheld.
            for event in held { try await relayEvent(event, &relay, &ctx) }
            throw error
        }
        for event in held { try await relayEvent(event, &relay, &ctx) }
        if !ended, relay.upstream.tellsReadiness { relay.upstream.closeWithoutUsage() }
        return !ended
    }

    /// Lets go of the upstream of a complete answer whose stream had not ended when the client's did (decision 0154):
    /// a usage read meanwhile is what the request is charged (the client has its answer already).
    private func letGoOfCompleteAnswer(_ relay: inout OpenRelay) async {
        for event in await relay.upstream.letGo() {
            relay.spend.count(event)
        }
    }

    /// Relays `event` to the client.
    private func relayEvent(_ event: ChatStreamEvent, _ relay: inout OpenRelay, _ ctx: inout RequestContext) async throws {
        relay.spend.count(event)
        relay.cacheWrite?.count(event)
        try relay.recheck.checkIfDue()
        let bytes = relay.encoder.encode(event)
        if !bytes.isEmpty { try await ctx.responder.write(bytes) }
    }

    /// The surface's closing bytes, and the end of the reply; a stream relayed to its end, its closing bytes written,
    /// is kept in the response cache when it may be (a cut stream, one the client left or whose token was revoked
    /// never gets here).
    private func finishStream(_ relay: inout OpenRelay, _ ctx: inout RequestContext) async throws {
        try await ctx.responder.write(relay.encoder.finish())
        relay.cacheWrite?.keep(from: relay.upstream.target)
        ctx.responder.end()
    }

    /// The stream's head. Out of line, like `relayEnded`: a relay's async frame lives as long as its stream (decision
    /// 0036).
    @inline(never)
    static func startStream(_ preparedFor: RouteTarget?, _ ctx: inout RequestContext) async throws {
        // The prepared head holds what `SSEResponse.headers(ctx)` gives when its deployment answered and nothing
        // escalated (which changes the route and the skills fields).
        if let preparedFor, ctx.log.escalations == 0, ctx.log.model == preparedFor.qualifiedName, ctx.log.provider == preparedFor.provider.id {
            try await ctx.responder.startPreparedStream(status: 200)
        } else {
            try await ctx.responder.startStream(status: 200, headers: SSEResponse.headers(ctx))
        }
        ctx.log.status = 200
    }

    /// Ends a stream that failed after it started, with the error event the encoder (or else the surface) gives.
    @inline(never)
    private func relayFailed(_ error: any Error, _ encoder: any SurfaceStreamEncoder, _ ctx: inout RequestContext) async {
        await SSEResponse.fail(error, errorEvent: { encoder.failure($0) ?? surface.streamErrorEvent($0) }, &ctx)
    }

    /// Stage 7 for a relayed stream, with the usage its last events reported, or else the one estimated from what it
    /// relayed: a stream the client left, or the upstream cut, before its usage came is charged for what it used, not
    /// nothing, so a client cannot spend past its budget and limits by leaving every stream early (decision 0104).
    @inline(never)
    private func relayEnded(_ relay: OpenRelay, _ ctx: inout RequestContext) {
        if let dropped = relay.upstream.singleToolCall?.dropped, dropped > 0 { ctx.log.attempts.append(.note(SingleToolCall.note(dropped))) }
        let (usage, estimated) = relay.spend.spent
        ctx.log.usage = usage
        ctx.log.usageEstimated = ctx.log.usageEstimated || estimated  // a failed attempt's may have been (decision 0120)
        ctx.log.costUSD = relay.upstream.target.model.price?.cost(of: usage)
        answer.account(&ctx)
    }
}
