import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateProviders
import SkillGateState
import Synchronization

/// The Responses API's memory: answers kept for `previous_response_id`, per client token, for
/// `responses.retention_hours` (decision 0028), in the state store (SQLite, or PostgreSQL with
/// `state.postgres_url`).
///
/// Saving costs the request only a lock and a dictionary insert: a thread of its own writes what is
/// pending every `flushInterval` in one transaction, and until then lookups find the answer in memory,
/// so a client chaining on an id the moment it arrives finds it. A lookup that misses both asks the
/// store once more after one flush interval: with several instances on PostgreSQL, an answer given by
/// another instance a moment ago is then written too. A process crash loses at most the answers of the
/// last interval (their later chains get the 404 that says why). The writer runs at a lowered priority, and a write of
/// `catchUpResponses` or more answers (the writer behind) runs at normal priority on a `CatchUpLane` (decision 0060).
final class ResponseArchive: Sendable {
    private struct Pending {
        var responses: [String: StoredResponse] = [:]
        /// The bytes of the pending conversations and objects (`StoredResponse.storedBytes`).
        var bytes = 0
        var closed = false
        /// Whether the writer thread runs (it starts with the first answer saved).
        var writing = false
        /// The writer's catch-up lane, made with it (decision 0060).
        var catchUp: CatchUpLane?
    }

    /// A write of at least this many answers means the low-priority writer is behind: it is done at normal priority
    /// on the catch-up lane.
    static let catchUpResponses = 1024

    /// Answers held in memory at most while the store cannot take them (then new ones are not kept).
    static let maxPending = 10_000
    /// Their bytes at most (a thousand answers of 256 KiB, or 32 of the longest conversation kept).
    static let maxPendingBytes = 256 << 20

    /// The longest conversation kept for one response, 8 MiB (two bodies at the default limit; about two million tokens,
    /// past any model's context window). Each continued response stores the whole conversation so far, so without a
    /// bound a chain of 4 MiB inputs stored 4, 8, 12, … MiB (decision 0096).
    static let maxConversationBytes = 8 << 20

    let store: any ResponseStore
    /// How long a response can be continued, in hours; zero keeps none.
    let retention: Double
    let flushInterval: Duration
    /// The wall clock (tests pass their own).
    private let now: @Sendable () -> Date
    /// Reports answers that could not be stored.
    private let warn: @Sendable (String) -> Void
    private let pending = Mutex(Pending())
    /// Held by a write for all of it (`writePending`) and by `delete`, which so never falls between a write's taking of
    /// an answer and its storing (the answer would come back). Holds what the writes dropped for `maxBytesPerToken`
    /// and not yet reported.
    private let writing = Mutex(DroppedForBound())
    /// The most one token's stored conversations hold together (`responses.max_mib_per_token`, decision 0119).
    let maxBytesPerToken: Int
    /// Where the store is read for `conversation`, one lookup at a time, never on an event loop (decision 0085): a
    /// PostgreSQL round trip, or SQLite behind the ledger writer's batch, would hold every other connection of the
    /// loop.
    private let storeLookups = BlockingWorkQueue(label: "skillgate.responses.store-lookups")
    /// Where `delete` waits for a write under way and for the store, so lookups never queue behind it.
    private let deletes = BlockingWorkQueue(label: "skillgate.responses.deletes")
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    init(store: any ResponseStore, retention: Double, maxBytesPerToken: Int = .max, flushInterval: Duration = .milliseconds(50),
         now: @escaping @Sendable () -> Date, warn: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.retention = retention
        self.maxBytesPerToken = maxBytesPerToken
        self.flushInterval = flushInterval
        self.now = now
        self.warn = warn
    }

    /// Whether responses are kept at all.
    var isEnabled: Bool { retention > 0 }

    /// Keeps `conversation` (the input and the answer, as the JSON text of input items with their ids:
    /// `ResponsesStoredConversation`, decision 0138) as response `id` of token `tokenId`, with `object`, the Response object the client was
    /// given, for `GET /v1/responses/{id}` (decision 0125), and `inputEnd`, the length of the conversation's input
    /// (`StoredResponse.inputEnd`), for `GET /v1/responses/{id}/input_items` (decision 0127).
    func save(id: String, tokenId: String, conversation: [UInt8], object: [UInt8]? = nil, inputEnd: Int? = nil) {
        guard isEnabled else { return }
        guard conversation.count <= Self.maxConversationBytes else {
            warn("response \(id) was not kept: its conversation is \(conversation.count) bytes, over the \(Self.maxConversationBytes) kept for one")
            return
        }
        let created = now()
        let record = StoredResponse(id: id, tokenId: tokenId, createdAt: created, expiresAt: created.addingTimeInterval(retention * 3600),
                                    conversation: conversation, object: object, inputEnd: inputEnd)
        let (start, full) = pending.locked { p -> (Bool, Bool) in
            guard !p.closed else { return (false, false) }
            let replaced = p.responses[id]?.storedBytes
            let added = record.storedBytes - (replaced ?? 0)
            guard replaced != nil || p.responses.count < Self.maxPending, p.bytes + added <= Self.maxPendingBytes else { return (false, true) }
            p.bytes += added
            p.responses[id] = record
            defer { p.writing = true }
            return (!p.writing, false)
        }
        if full { warn("response \(id) was not kept: \(Self.maxPending) answers or \(Self.maxPendingBytes) bytes wait for the state store, which is failing or slow") }
        if start {
            // Made here, on a thread of normal priority (an event loop's), so the lane keeps that priority.
            let lane = CatchUpLane(name: "sg-responses-cu")
            pending.locked { $0.catchUp = lane }
            DetachedThread.start(name: "sg-responses", scheduling: .lowPriorityBackground) { [self] in run(catchUp: lane) }
        }
    }

    /// The conversation of response `id` of token `tokenId`; a 404 in the Responses shape when it is
    /// unknown, expired, or another token's (which of the three is not told, so ids of other tokens
    /// cannot be probed).
    func conversation(id: String, tokenId: String) async throws -> ResponsesHistory {
        var found = try await lookupOffTheLoop(id: id, tokenId: tokenId)
        if found == nil, isEnabled {
            try await Task.sleep(for: flushInterval * 2)
            found = try await lookupOffTheLoop(id: id, tokenId: tokenId)
        }
        guard let found else {
            var error = GatewayError(domain: .caller, kind: .notFound, status: 404,
                                     message: "previous response '\(Self.shown(id))' was not found for this token: it is unknown, expired (responses are kept \(Self.hours(retention)) h, `responses.retention_hours`), was created with another token, was sent with store: false, its conversation was over the \(Self.maxConversationBytes / (1 << 20)) MiB kept for one, or it was among the token's oldest, dropped when its stored responses passed `responses.max_mib_per_token`; send the whole conversation in `input` instead")
            error.param = "previous_response_id"
            throw error
        }
        let items: [JSONValue]
        do { items = try JSONValue.parse(found.conversation).arrayValue ?? [] } catch {
            throw GatewayError.internalError("stored response '\(id)' is unreadable (\(error)); send the whole conversation in `input` instead")
        }
        return ResponsesHistory(messages: try OpenAIResponsesFormat.conversation(fromItems: items), itemsJSON: found.conversation)
    }

    /// The Response object of response `id` of token `tokenId` (`GET /v1/responses/{id}`, decision 0125), read without
    /// its conversation: from memory while it is pending, else from the store off the event loop, asking again after one
    /// flush interval as `conversation` does. A 404 in the Responses shape when the token has no such response (which
    /// of unknown, expired or another token's is not told), or when it was stored before objects were kept.
    func object(id: String, tokenId: String) async throws -> [UInt8] {
        var found = try await objectOffTheLoop(id: id, tokenId: tokenId)
        if found == .notFound, isEnabled {
            try await Task.sleep(for: flushInterval * 2)
            found = try await objectOffTheLoop(id: id, tokenId: tokenId)
        }
        switch found {
        case .found(let object):
            return object
        case .keptWithoutObject:
            var error = GatewayError(domain: .caller, kind: .notFound, status: 404,
                                     message: "response '\(Self.shown(id))' was stored before this gateway kept Response objects, so it cannot be retrieved; it can still be continued with previous_response_id until it expires (responses are kept \(Self.hours(retention)) h, `responses.retention_hours`)")
            error.param = "response_id"
            throw error
        case .notFound:
            throw Self.notFound(id, retention: retention)
        }
    }

    /// The items the model was given for response `id` of token `tokenId` (`GET /v1/responses/{id}/input_items`,
    /// decision 0127), as the JSON text of an items array: the conversation it continued, then its request's input. Read
    /// as `conversation` reads (asking again after one flush interval); the same 404 as `object` when the token has no
    /// such response, and one that says why when it was stored before the gateway kept where its input ends.
    func inputItems(id: String, tokenId: String) async throws -> [UInt8] {
        let purpose = "list the input items of"
        var found = try await lookupOffTheLoop(id: id, tokenId: tokenId, purpose: purpose)
        if found == nil, isEnabled {
            try await Task.sleep(for: flushInterval * 2)
            found = try await lookupOffTheLoop(id: id, tokenId: tokenId, purpose: purpose)
        }
        guard let found else { throw Self.notFound(id, retention: retention) }
        guard let items = found.inputItemsJSON else {
            var error = GatewayError(domain: .caller, kind: .notFound, status: 404,
                                     message: "response '\(Self.shown(id))' was stored before this gateway kept where its input ends, so its input items cannot be listed; it can still be continued with previous_response_id until it expires (responses are kept \(Self.hours(retention)) h, `responses.retention_hours`)")
            error.param = "response_id"
            throw error
        }
        return items
    }

    /// The 404 of a retrieval (`object`, `inputItems`) for a response the token does not have: which of unknown, expired
    /// or another token's is not told.
    private static func notFound(_ id: String, retention: Double) -> GatewayError {
        var error = GatewayError(domain: .caller, kind: .notFound, status: 404,
                                 message: "response '\(shown(id))' was not found for this token: it is unknown, expired (responses are kept \(hours(retention)) h, `responses.retention_hours`), was created with another token, was sent with store: false, was deleted, its conversation was over the \(maxConversationBytes / (1 << 20)) MiB kept for one, or it was among the token's oldest, dropped when its stored responses passed `responses.max_mib_per_token`; keep the answers you need on your side")
        error.param = "response_id"
        return error
    }

    /// `object`'s lookup: a pending answer in memory where the caller runs, the store on `storeLookups`.
    private func objectOffTheLoop(id: String, tokenId: String) async throws -> StoredResponseObject {
        let at = now()
        if let mine = pending.locked({ $0.responses[id] }) {
            guard mine.tokenId == tokenId, mine.expiresAt > at else { return .notFound }
            return mine.object.map { .found($0) } ?? .keptWithoutObject
        }
        return try await storeLookups.run { [self] in
            do { return try store.storedResponseObject(id: id, tokenId: tokenId, now: now()) } catch {
                throw GatewayError(domain: .gateway, kind: .upstreamUnavailable, status: 503,
                                   message: "SkillGate cannot read its state database to retrieve response '\(Self.shown(id))'; retry in a few seconds (the operator should check state_dir or state.postgres_url)",
                                   retryAfter: 2)
            }
        }
    }

    /// Forgets response `id` of token `tokenId` (`DELETE /v1/responses/{id}`), pending or stored: false when this token
    /// has none by that id (unknown, expired and purged, or another token's, which is left alone). Waits for a write
    /// under way, and for the store, so it runs off the event loop; a store that fails is a 503 to retry, which deleted
    /// nothing: a pending answer is put back, so the retry finds it (decision 0128).
    func delete(id: String, tokenId: String) async throws -> Bool {
        try await deletes.run { [self] in
            try writing.locked { _ throws(GatewayError) -> Bool in
                let inMemory = pending.locked { p -> StoredResponse? in
                    guard let mine = p.responses[id], mine.tokenId == tokenId else { return nil }
                    p.responses[id] = nil
                    p.bytes -= mine.storedBytes
                    return mine
                }
                do { return try store.deleteResponse(id: id, tokenId: tokenId) || inMemory != nil } catch {
                    // No write runs meanwhile (`writing` is held): the answer goes back as it was, still to be written.
                    if let inMemory {
                        pending.locked { p in
                            p.responses[id] = inMemory
                            p.bytes += inMemory.storedBytes
                        }
                    }
                    throw GatewayError(domain: .gateway, kind: .upstreamUnavailable, status: 503,
                                       message: "SkillGate cannot write its state database to delete response '\(Self.shown(id))'; retry in a few seconds (the operator should check state_dir or state.postgres_url)",
                                       retryAfter: 2)
                }
            }
        }
    }

    /// Writes what is pending now (tests; `close` does it too).
    func flush() {
        writePending()
    }

    /// Writes what is pending and stops the writer; later answers are not kept.
    func close() {
        let writing = pending.locked { p -> Bool in
            p.closed = true
            return p.writing
        }
        guard writing else { return }
        wake.signal()
        _ = stopped.wait(timeout: .now() + .seconds(5))
    }

    /// `lookup`: an answer still pending is found in memory where the caller runs; the store is read on
    /// `storeLookups`.
    /// `purpose` completes the 503's "cannot read its state database to …" (`continue`, `list the input items of`).
    private func lookupOffTheLoop(id: String, tokenId: String, purpose: String = "continue") async throws -> StoredResponse? {
        let at = now()
        if let mine = pending.locked({ $0.responses[id] }) {
            return mine.tokenId == tokenId && mine.expiresAt > at ? mine : nil
        }
        return try await storeLookups.run { try self.lookup(id: id, tokenId: tokenId, purpose: purpose) }
    }

    /// The answer `id` of token `tokenId` if it is kept and not expired: the pending ones, then the store. Blocks on
    /// the store.
    private func lookup(id: String, tokenId: String, purpose: String) throws -> StoredResponse? {
        let at = now()
        if let mine = pending.locked({ $0.responses[id] }) {
            return mine.tokenId == tokenId && mine.expiresAt > at ? mine : nil
        }
        do { return try store.storedResponse(id: id, tokenId: tokenId, now: at) } catch {
            throw GatewayError(domain: .gateway, kind: .upstreamUnavailable, status: 503,
                               message: "SkillGate cannot read its state database to \(purpose) response '\(Self.shown(id))'; retry in a few seconds (the operator should check state_dir or state.postgres_url)",
                               retryAfter: 2)
        }
    }

    /// The writer: every `flushInterval` it writes what is pending; after a failed write it waits twice as long at each
    /// failure in a row, up to 5 s (`RetryBackoff`, decision 0097), so a full disk is not tried (and warned about) 20
    /// times a second, nor the main connection held while another process holds the write lock.
    private func run(catchUp: CatchUpLane) {
        var backoff = RetryBackoff(interval: flushInterval)
        while true {
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(backoff.wait / .nanoseconds(1))))
            let (count, closed) = pending.locked { ($0.responses.count, $0.closed) }
            let written = count >= Self.catchUpResponses ? catchUp.run { [self] in writePending() } : writePending()
            if written { backoff.succeeded() } else { backoff.failed() }
            if closed {
                catchUp.close()
                stopped.signal()
                return
            }
        }
    }

    /// Writes done on the catch-up lane so far (for tests).
    var catchUps: Int { pending.locked { $0.catchUp }?.jobsRun ?? 0 }

    /// Writes what is pending in one transaction and forgets what was written (unless saved again meanwhile). A failed
    /// write keeps the answers pending, to be retried later; returns whether it worked. Holds `writing` from taking the
    /// answers to forgetting them, so a `delete` comes wholly before or after it.
    @discardableResult
    private func writePending() -> Bool {
        writing.locked { dropped in
            let batch = pending.locked { Array($0.responses.values) }
            guard !batch.isEmpty else { return true }
            do {
                let droppedNow = try store.saveResponses(batch, now: now(), maxBytesPerToken: maxBytesPerToken)
                if let note = dropped.add(droppedNow, bound: maxBytesPerToken, at: .now) { warn(note) }
                pending.locked { p in
                    for r in batch where p.responses[r.id] == r {
                        p.responses[r.id] = nil
                        p.bytes -= r.storedBytes
                    }
                }
                return true
            } catch {
                warn("\(batch.count) responses could not be stored yet (\(error)); they stay in memory and are retried")
                return false
            }
        }
    }

    /// A client's id in a message: at most 80 characters of it.
    static func shown(_ id: String) -> String {
        id.utf8.count > 80 ? String(id.prefix(80)) + "…" : id
    }

    private static func hours(_ h: Double) -> String {
        h == h.rounded() ? String(Int(h)) : String(h)
    }
}
