import SkillGateCore
import SkillGateHTTP
import Synchronization

/// One streamed call of an `HTTPLLMClient`, read on demand: the first `next()` sends the request, later ones read the
/// body and translate it, all in the task that asks for the events. No task of its own and no event buffer beyond
/// what one chunk translates to, so a stream consumed on a server event loop has its upstream transfer on that loop's
/// lane too (decision 0035), and the transfer's bounded buffer is the only place events wait (decision 0036).
///
/// One consumer at a time (a `ChatEventIterator`, or an `AsyncThrowingStream`'s iterator); its steps may run in different
/// tasks one after the other (a stream is opened by the request's setup task and relayed by its handler's).
///
/// Its state is not generic over the format (the translator is held as `any WireStreamTranslator`): the reader's
/// methods run unspecialised behind `LLMClient`, and types nested in a generic class would be looked up in the
/// runtime's metadata cache on every lock and every event (~5 % of a streamed request's instructions, callgrind).
final class UpstreamEventReader<Format: WireFormat>: ChatEventPuller {
    private let client: HTTPLLMClient<Format>
    private let state: Mutex<UpstreamReadState>

    init(client: HTTPLLMClient<Format>, request: ChatRequest) {
        self.client = client
        state = Mutex(UpstreamReadState(phase: .unopened(request)))
    }

    deinit {
        if let ticket = state.locked({ $0.firstEvent?.ticket }) { FirstAnswerWatch.shared.release(ticket) }
    }

    /// The next event, or nil once the stream ended.
    ///
    /// - Throws: the provider's error (a `GatewayError`) when the call failed or the body broke off; the stream is over
    ///   after a throw.
    func next() async throws -> ChatStreamEvent? {
        do {
            while true {
                switch step(mayOpen: true) {
                case .deliver(let event)?:
                    return event
                case .end?, nil:
                    return nil
                case .open(let request)?:
                    let reader = try await open(request)
                    state.locked { $0.phase = .open(reader, client.format.makeStreamTranslator(deployment: client.deployment)) }
                case .read(let reader)?:
                    let chunk = try await reader.next()
                    if chunk == nil { try Task.checkCancellation() }
                    try translate(chunk)
                }
            }
        } catch {
            throw ended(by: error)
        }
    }

    /// The next event when it is known without waiting: one translated already, or one the bytes that already arrived
    /// translate to (`.some(nil)`: the stream ended); nil when the body must be waited for, or before the request went
    /// out.
    func readyEvent() throws -> ChatStreamEvent?? {
        do {
            while true {
                switch step(mayOpen: false) {
                case .deliver(let event)?:
                    return .some(event)
                case .end?:
                    return .some(nil)
                case .read(let reader)?:
                    guard let chunk = try reader.nextIfReady() else { return nil }
                    try translate(chunk)
                case .open?, nil:
                    return nil
                }
            }
        } catch {
            throw ended(by: error)
        }
    }

    /// What to do next, under the lock: deliver a translated event, end, read the body, or (when `mayOpen`; nil
    /// otherwise) send the request.
    private func step(mayOpen: Bool) -> UpstreamReadStep? {
        state.locked { s in
            if s.nextPending < s.pending.count {
                let event = s.pending[s.nextPending]
                s.nextPending += 1
                // The answer began: its first event's deadline no longer applies (decision 0156).
                if let watched = s.firstEvent {
                    FirstAnswerWatch.shared.release(watched.ticket)
                    s.firstEvent = nil
                }
                return .deliver(event)
            }
            switch s.phase {
            case .unopened(let request):
                guard mayOpen else { return nil }
                s.phase = .opening
                return .open(request)
            case .open(let reader, _):
                return .read(reader)
            case .opening, .finished:
                return .end
            }
        }
    }

    /// Ends the stream after `error`, which is returned as the provider's error when the HTTP client raised it, and
    /// as `Deployment.cleaning` leaves it (no key, a bounded delay).
    private func ended(by error: any Error) -> any Error {
        let watched = state.locked { s -> (ticket: FirstAnswerWatch.Ticket, stopper: HTTPTransferStopper)? in
            s.phase = .finished
            s.pending = []
            defer { s.firstEvent = nil }
            return s.firstEvent
        }
        var error = error
        if let watched {
            FirstAnswerWatch.shared.release(watched.ticket)
            // Stopped by the first event's deadline, not by the consumer's task: a timeout, fallen back from as one.
            if watched.stopper.wasStopped, (error as? HTTPClientError)?.kind == .cancelled {
                error = HTTPClientError(kind: .firstByteTimeout, detail: "no part of the answer came within first_byte_seconds")
            }
        }
        let mapped = (error as? HTTPClientError)?.gatewayError(provider: client.deployment.providerId) ?? error
        return client.deployment.cleaning(mapped)
    }

    /// Translates `chunk` (nil: the body ended) into the pending events.
    private func translate(_ chunk: [UInt8]?) throws {
        try state.locked { s in
            guard case .open(let reader, var translator) = s.phase else { return }
            // The phase lets go of the translator while it is fed, so it is mutated in place rather than copied
            // (its buffers with it); a throw leaves the phase for `next()` to finish.
            s.phase = .opening
            s.pending.removeAll(keepingCapacity: true)
            s.nextPending = 0
            if let chunk {
                s.pending = try translator.feed(chunk)
                s.phase = .open(reader, translator)
            } else {
                s.pending = try translator.finish()
                s.phase = .finished
            }
        }
    }

    /// How much later than the head's deadline the first event's watch fires, so that a call with no head is ended by
    /// the HTTP client (which knows whether it was sent) rather than by the watch.
    static var watchGrace: Duration { .milliseconds(250) }

    /// Sends the request and returns at the response's head, with a provider error for a non-2xx answer. Its own
    /// function so the serialized request body (a copy is held by libcurl once sent) is not kept for the stream's life
    /// (decision 0033).
    ///
    /// The answer's first event is due within the deployment's first-byte timeout (capped at the route's deadline left),
    /// counted from now: a wait for a pooled connection, a head and then silence, or only keep-alive comments or pings
    /// do not hold the call past it, so a hung deployment leaves its fallback time (decision 0156).
    private func open(_ request: ChatRequest) async throws -> HTTPBodyReader {
        var httpRequest = try client.format.makeRequest(request, deployment: client.deployment, stream: true)
        httpRequest.httpVersion = client.deployment.httpVersion
        httpRequest.caFile = client.deployment.caFile
        var stopper: HTTPTransferStopper?
        if let budget = client.deployment.timeouts.firstByte {
            // No head by then: the HTTP client ends the call itself and says whether the request went out (a call
            // still queued for a connection was never sent, so it is not charged as sent: decisions 0130, 0162). The
            // watch, a moment later, ends a call whose head came but whose first event did not.
            httpRequest.timeouts.head = budget
            let stop = HTTPTransferStopper()
            let ticket = FirstAnswerWatch.shared.watch(until: .now + budget + Self.watchGrace) { stop.stop() }
            state.locked { $0.firstEvent = (ticket, stop) }
            stopper = stop
        }
        let response = try await client.http.stream(httpRequest, stopper: stopper)
        guard (200..<300).contains(response.status) else {
            let body = try await response.collectBody(limit: HTTPLLMClient<Format>.maxErrorBody)
            throw client.format.parseError(status: response.status, headers: response.headers, body: body,
                                           deployment: client.deployment)
        }
        return response.bodyReader
    }
}

/// Where an `UpstreamEventReader` is: not yet sent, being sent, reading the body, or done.
private enum UpstreamReadPhase {
    case unopened(ChatRequest)
    case opening
    case open(HTTPBodyReader, any WireStreamTranslator)
    case finished
}

/// An `UpstreamEventReader`'s state under its lock: the phase and the events translated but not yet delivered.
private struct UpstreamReadState {
    var phase: UpstreamReadPhase
    var pending: [ChatStreamEvent] = []
    var nextPending = 0
    /// While the answer's first event is due: its registration with the watch, and the stop it calls.
    var firstEvent: (ticket: FirstAnswerWatch.Ticket, stopper: HTTPTransferStopper)?
}

/// What `UpstreamEventReader.next()` does after looking at the state under the lock.
private enum UpstreamReadStep {
    case deliver(ChatStreamEvent)
    case end
    case open(ChatRequest)
    case read(HTTPBodyReader)
}
