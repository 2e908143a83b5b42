import FoundationEssentials
import SkillGateCore
import SkillGateKeys
import SkillGateSkills
import SkillGateState
import Synchronization

/// `skill_ranking.examples`: example requests for each skill, written once by a chat model and kept
/// (in memory and in the state store) by a hash of the model and the skill's text (decision 0045).
///
/// No request waits for a model: `examples(for:)` answers from what is kept and, for skills without
/// examples, queues them for one background worker that writes one skill at a time. Until every
/// candidate of a cut has examples, the cut is ranked without them. A skill whose writing failed is
/// tried again after `retryAfter`. At most `settings.maxPerHour` skills are written in any hour; past it
/// the worker waits. Every answered call and every finished skill is reported to `events` (metrics, log).
final class SkillExampleWriter: Sendable {
    /// One call to one target; the closure owns the client and its key.
    typealias Call = @Sendable (RouteTarget, ChatRequest) async throws -> ChatResponse

    let settings: GatewayConfig.Examples
    /// What `settings.model` resolves to, in order of preference; never empty.
    let targets: [RouteTarget]
    private let call: Call
    private let store: SQLiteStateStore?
    /// How long a failed skill waits before it is queued again.
    let retryAfter: Duration
    /// The most skills whose examples are kept in memory (when full, memory starts over; the store keeps them).
    let capacity: Int
    /// The most skills waiting to be written; past it new skills are not queued (their cuts are ranked without
    /// examples, and they are queued when a later request meets them with room in the queue). Clients declare
    /// tools, so this bounds what a client sending ever-new descriptions can make the gateway spend at once.
    let maxQueued: Int
    private let events: EventSink?
    private let state: Mutex<State>
    private let clock = ContinuousClock()
    /// Where the examples are saved to the state store.
    private static let saves = BlockingWorkQueue(label: "skillgate.skill-example-saves")

    private struct State {
        var memory: [String: [String]] = [:]
        /// Each skill's key (building it parses the schema and hashes the text: not on every request).
        var keys: [SkillCandidate: String] = [:]
        var queue: [(key: String, skill: SkillCandidate)] = []
        var queued: Set<String> = []
        var failedAt: [String: ContinuousClock.Instant] = [:]
        var working = false
        var written = 0
        var failed = 0
        var lastFailure: String?
        var allowance: WriteAllowance
        /// Continuations of `writeAll` callers, resumed when the queue is empty.
        var idle: [CheckedContinuation<Void, Never>] = []
    }

    /// - Parameter hour: the window `settings.maxPerHour` counts over (an hour; shorter in tests).
    init(settings: GatewayConfig.Examples, targets: [RouteTarget], store: SQLiteStateStore?, retryAfter: Duration = .seconds(600),
         capacity: Int = 4096, maxQueued: Int = 1024, hour: Duration = .seconds(3600), events: EventSink? = nil,
         call: @escaping Call) {
        precondition(!targets.isEmpty, "an examples writer needs a model")
        self.settings = settings
        self.targets = targets
        self.store = store
        self.retryAfter = retryAfter
        self.capacity = max(1, capacity)
        self.maxQueued = max(1, maxQueued)
        self.events = events
        self.call = call
        self.state = Mutex(State(allowance: WriteAllowance(limit: settings.maxPerHour, window: hour)))
    }

    /// The keys of `skills`' examples: a hash of the configured model (its first target), the instructions and
    /// each skill's text. Remembered per skill, so a request only looks them up (under one lock).
    func keys(for skills: [SkillCandidate]) -> [String] {
        var keys = state.locked { s in skills.map { s.keys[$0] } }
        let fresh = skills.indices.filter { keys[$0] == nil }
        guard !fresh.isEmpty else { return keys.map { $0! } }
        for i in fresh {
            keys[i] = SHA256Hash.hex(targets[0].qualifiedName + "\u{0}" + SkillExamplePrompt.instructions + "\u{0}" + SkillExamplePrompt.skillText(skills[i]))
        }
        state.locked { s in
            if s.keys.count + fresh.count > capacity { s.keys.removeAll(keepingCapacity: true) }
            for i in fresh { s.keys[skills[i]] = keys[i] }
        }
        return keys.map { $0! }
    }

    /// Every candidate's examples, in order, when all of them have some; otherwise `nil`, and the
    /// candidates without examples are queued for writing.
    func examples(for candidates: [SkillCandidate]) -> [[String]]? {
        let keys = keys(for: candidates)
        let (inMemory, known) = state.locked { s in (keys.map { s.memory[$0] }, s.queued.union(s.failedAt.keys)) }
        var found = inMemory
        // Queued and failed skills are known to have none: the store is read only for skills not seen yet.
        let missing = keys.indices.filter { found[$0] == nil && !known.contains(keys[$0]) }
        if !missing.isEmpty, let store, let stored = try? store.skillExamples(keys: missing.map { keys[$0] }), !stored.isEmpty {
            for i in missing { found[i] = stored[keys[i]] }
            remember(stored)
        }
        let absent = keys.indices.filter { found[$0] == nil }
        guard absent.isEmpty else {
            enqueue(absent.map { (keys[$0], candidates[$0]) })
            return nil
        }
        return found.map { $0! }
    }

    /// Writes the examples of every candidate that has none (in the background worker) and returns
    /// when the queue is empty: for `skillgate eval skills` and for warming up before traffic.
    func writeAll(_ candidates: [SkillCandidate]) async {
        if examples(for: candidates) != nil { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.locked { s in
                if s.queue.isEmpty && !s.working { return true }
                s.idle.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// How many skills' examples were written, and how many writes failed, since start.
    var counts: (written: Int, failed: Int) { state.locked { ($0.written, $0.failed) } }

    private func remember(_ entries: [String: [String]]) {
        state.locked { s in
            if s.memory.count + entries.count > capacity { s.memory.removeAll(keepingCapacity: true) }
            for (key, examples) in entries { s.memory[key] = examples }
        }
    }

    private func enqueue(_ skills: [(key: String, skill: SkillCandidate)]) {
        let now = clock.now
        let start = state.locked { s -> Bool in
            for item in skills where !s.queued.contains(item.key) && s.queue.count < maxQueued {
                if let failed = s.failedAt[item.key], now - failed < retryAfter { continue }
                s.queued.insert(item.key)
                s.queue.append(item)
            }
            guard !s.working, !s.queue.isEmpty else { return false }
            s.working = true
            return true
        }
        if start { Task(executorPreference: globalConcurrentExecutor) { await self.work() } }
    }

    /// Writes queued skills one at a time until the queue is empty, then wakes `writeAll`'s callers.
    private func work() async {
        while true {
            let next = state.locked { s -> (key: String, skill: SkillCandidate)? in
                if s.queue.isEmpty { s.working = false; return nil }
                return s.queue.removeFirst()
            }
            guard let item = next else { return }
            await waitForAllowance()
            let examples = await write(item.skill)
            if !examples.isEmpty {
                remember([item.key: examples])
                if let store {
                    // Off the shared task pool: the write may wait for the store's connection or another process's lock
                    // (decision 0159).
                    let saved = StoredSkillExamples(key: item.key, model: targets[0].qualifiedName, examples: examples)
                    await Self.saves.run { try? store.saveSkillExamples([saved]) }
                }
            }
            let waiting = state.locked { s -> [CheckedContinuation<Void, Never>]? in
                s.queued.remove(item.key)
                if examples.isEmpty {
                    s.failed += 1
                    if s.failedAt.count >= capacity { s.failedAt.removeAll(keepingCapacity: true) }
                    s.failedAt[item.key] = clock.now
                } else {
                    s.written += 1
                    s.failedAt[item.key] = nil
                    if s.failedAt.isEmpty { s.lastFailure = nil }
                }
                guard s.queue.isEmpty else { return nil }
                s.working = false
                defer { s.idle = [] }
                return s.idle
            }
            guard let waiting else { continue }
            for continuation in waiting { continuation.resume() }
            return
        }
    }

    /// Waits until the hour has room for one more skill (`max_per_hour`), and takes it; says once per wait
    /// that writing is paused.
    private func waitForAllowance() async {
        while true {
            let now = clock.now
            let (until, queued) = state.locked { s in (s.allowance.take(at: now), s.queue.count + 1) }
            guard let until else { return }
            events?(.paused(queued: queued, seconds: (until - now) / .seconds(1)))
            try? await clock.sleep(until: until)
        }
    }

    /// One skill's examples from the first target that answers with some within the timeout; none on
    /// failure, which is then remembered as `lastFailure`.
    private func write(_ skill: SkillCandidate) async -> [String] {
        let request = SkillExamplePrompt.request(for: skill)
        let answer = await Deadline.run(within: .milliseconds(settings.timeoutMs)) { [targets, call, events] () async -> Result<[String], Failure> in
            var failure = Failure(message: "no target was asked")
            for target in targets {
                var attempt = request
                attempt.model = target.model.id
                let started = ContinuousClock.now
                do {
                    let response = try await call(target, attempt)
                    let cost = target.model.price?.cost(of: response.usage)
                    events?(.answered(model: target.qualifiedName, usage: response.usage, costUSD: cost))
                    events?(.recorded(Self.ledgerRow(target, started: started, usage: response.usage, costUSD: cost, outcome: "ok")))
                    let examples = SkillExamplePrompt.examples(in: response.text)
                    if !examples.isEmpty { return .success(examples) }
                    failure = Failure(message: "\(target.qualifiedName) answered without example requests; name a model that follows JSON instructions")
                } catch let error as GatewayError {
                    events?(.recorded(Self.ledgerRow(target, started: started, outcome: error.kind.rawValue)))
                    failure = Failure(message: "\(target.qualifiedName): \(error.message)")
                } catch {
                    let outcome = error is CancellationError ? GatewayError.Kind.cancelled : .internalError
                    events?(.recorded(Self.ledgerRow(target, started: started, outcome: outcome.rawValue)))
                    failure = Failure(message: "\(target.qualifiedName): \(error)")
                }
            }
            return .failure(failure)
        }
        let outcome = answer ?? .failure(Failure(
            message: "\(settings.model) wrote no examples within \(settings.timeoutMs) ms (skill_ranking.examples.timeout_ms); raise it or name a faster model"))
        switch outcome {
        case .success(let examples):
            events?(.finished(skill: skill.name, failure: nil))
            return examples
        case .failure(let failure):
            state.locked { $0.lastFailure = "skill \(skill.name): " + failure.message }
            events?(.finished(skill: skill.name, failure: failure.message))
            return []
        }
    }

    /// The usage-ledger row of one writing call that started at `started` (decision 0049).
    private static func ledgerRow(_ target: RouteTarget, started: ContinuousClock.Instant, usage: Usage = Usage(), costUSD: Double? = nil,
                                  outcome: String) -> UsageRecord {
        var row = UsageRecord(occurredAt: Date(), provider: target.provider.id, model: target.model.id, usage: usage,
                              costMicrodollars: UsageRecord.microdollars(costUSD),
                              durationMilliseconds: Int((ContinuousClock.now - started) / .milliseconds(1)), outcome: outcome)
        row.kind = .examples
        row.attempts = 1
        return row
    }

    /// Why writing a skill's examples failed.
    private struct Failure: Error {
        var message: String
    }

    /// The latest failure to write a skill's examples, for the log of requests ranked without them
    /// (`skills_examples_error`); `nil` once every skill that failed has been written.
    var lastFailure: String? { state.locked { $0.lastFailure } }
}
