import SkillGateCore
import SkillGateRouting
import Synchronization

/// Runs a prepared chat request along its `RoutePlan`: orders the deployments (stickiness, load
/// balancing), skips cooled-down ones, and retries or falls back on connect errors, timeouts, 429,
/// 5xx and "overloaded" — waiting out backoff and Retry-After inside the total deadline — and falls
/// back from a provider that refused the gateway's key or model id (`GatewayError.refusal`), and tries again after an
/// answer that was a failed attempt (`GatewayError.failedAnswer`, decision 0117), until one deployment answers. It never
/// retries once the answer's first event was handed out: from then on bytes may have reached the client.
///
/// One instance serves the whole gateway; its `DeploymentHealth` and `ToolCallAffinity` are shared.
final class RouteExecutor: Sendable {
    /// Builds the client of a target; `remaining` is the time left of the deadline (caps connect
    /// and first-byte timeouts).
    typealias ClientSource = @Sendable (_ target: RouteTarget, _ remaining: Duration) throws(GatewayError) -> UpstreamClient

    let policy: RetryPolicy
    let balancer: LoadBalancer
    let health: DeploymentHealth
    let affinity: ToolCallAffinity
    let clock: any ResilienceClock
    private let clients: ClientSource
    /// The version of the secret (of a pool: of all its secrets) a target's provider key has now; nil when it has none.
    private let keyVersion: @Sendable (RouteTarget) -> Int?
    private let unitRandom: @Sendable () -> Double

    /// The most one answer may carry (`limits.max_answer_mib`, decision 0155).
    let maxAnswerBytes: Int

    init(settings: GatewayConfig.Resilience, clock: any ResilienceClock = SystemResilienceClock(),
         unitRandom: @escaping @Sendable () -> Double = UnitRandom().next, keyVersion: @escaping @Sendable (RouteTarget) -> Int? = { _ in nil },
         maxAnswerBytes: Int = AnswerSizeLimit.defaultMaxBytes, clients: @escaping ClientSource) {
        self.maxAnswerBytes = maxAnswerBytes
        policy = settings.policy
        balancer = settings.balancer
        health = DeploymentHealth(failureThreshold: policy.cooldownAfterFailures, cooldown: policy.cooldown, clock: clock)
        affinity = ToolCallAffinity(capacity: settings.stickyToolCalls)
        self.clock = clock
        self.unitRandom = unitRandom
        self.keyVersion = keyVersion
        self.clients = clients
    }

    /// Sends `request` and waits for the whole answer. Tool calls in it are remembered for stickiness.
    /// `attempts` receives every attempt (also when this throws). `caller`: the client token's id, to which the
    /// deployments' failures are attributed (decision 0115). `escalates`: whether a deployment's unusable answers are
    /// re-run on a stronger tier; its failed answer (decision 0117) then ends the call at once, for the escalation.
    func complete(_ request: ChatRequest, plan: RoutePlan, caller: String?, attempts: inout [AttemptRecord],
                  escalates: (RouteTarget) -> Bool = { _ in false }) async throws -> (response: ChatResponse, target: RouteTarget) {
        let (response, target, lease) = try await run(request, plan: plan, caller: caller, attempts: &attempts, escalates: escalates,
                                                      settlesLater: { _ in false }) { llm, req, _ in
            try await llm.complete(req)
        }
        lease.release()
        affinity.remember(response.toolCalls.map(\.id), deployment: target.qualifiedName)
        return (response, target)
    }

    /// Sends `request` and returns once the first event arrived: the stream is committed to that
    /// deployment; the caller relays the events (nothing is retried after this returns). The attempt's
    /// outcome for the deployment's health is the stream's end, told by the stream (decision 0107). A stream that ends
    /// before its first event, without an answer, is a failed attempt like a cut connection (decision 0129).
    ///
    /// When `escalates` says so for the deployment that answers (a model whose answers escalate: its answer is
    /// checked before anything is sent), the stream is read to its end inside the attempt and replayed: a stream
    /// that breaks before its end is a failed attempt like one that failed before its first event (fallback,
    /// retry, health), since nothing of it reached the client; one whose answer was a failed attempt ends the call at
    /// once, for the escalation, as in `complete`.
    func openStream(_ request: ChatRequest, plan: RoutePlan, caller: String?, attempts: inout [AttemptRecord],
                    escalates: (RouteTarget) -> Bool = { _ in false }) async throws -> UpstreamStream {
        var readBeforeFailing: [ChatStreamEvent] = []
        return try await openStream(request, plan: plan, caller: caller, attempts: &attempts, readBeforeFailing: &readBeforeFailing,
                                    escalates: escalates)
    }

    /// `openStream`, giving in `readBeforeFailing` the events the last attempt had read of a stream read whole (an
    /// escalating model's) when it failed: what the provider wrote for a call whose client left while the gateway read
    /// it, which the execute stage charges (decision 0128). Empty when the last attempt read none.
    func openStream(_ request: ChatRequest, plan: RoutePlan, caller: String?, attempts: inout [AttemptRecord],
                    readBeforeFailing: inout [ChatStreamEvent], escalates: (RouteTarget) -> Bool = { _ in false }) async throws -> UpstreamStream {
        let (opened, target, lease) = try await run(request, plan: plan, caller: caller, attempts: &attempts, escalates: escalates,
                                                    settlesLater: { $0.isLive }) { llm, req, target in
            readBeforeFailing = []
            var iterator = llm.events(req)
            // A stream that ends before its first event is a cut: tried again and fallen back from (decision 0129).
            let first = try await Self.firstEvent(of: &iterator, target: target)
            guard escalates(target) else { return OpenedStream.live(first: first, iterator: iterator) }
            var events = [first]
            do {
                // Held whole, so bounded (decision 0155); read to the answer's completion (decision 0154).
                try await Self.readWhole(after: first, of: &iterator, into: &events, from: target, maxBytes: maxAnswerBytes)
                // A cancelled task's iterator ends as if the stream had: the client left, the answer was not read whole.
                try Task.checkCancellation()
            } catch {
                readBeforeFailing = events
                throw error
            }
            return OpenedStream.whole(events)
        }
        switch opened {
        case .live(let first, let iterator):
            let stream = UpstreamStream(target: target, pending: first, iterator: iterator, lease: lease, affinity: affinity,
                                        maxAnswerBytes: maxAnswerBytes)
            stream.noteToolCall(first)
            return stream
        case .whole(let events):
            lease.release()
            return UpstreamStream(replaying: events, target: target, affinity: affinity)
        }
    }

    /// The order in which to try the plan's targets: balanced, then the issuer of the tool calls the
    /// request answers moved to the front.
    func attemptOrder(_ plan: RoutePlan, for request: ChatRequest) -> [Int] {
        let names = plan.targets.map(\.qualifiedName)
        let inFlight = balancer.strategy == .leastInFlight ? health.inFlight(names) : []
        var order = balancer.order(names, inFlight: inFlight, unitRandom: unitRandom)
        if let issuer = affinity.issuer(of: request), let i = names.firstIndex(of: issuer.deployment),
           let position = order.firstIndex(of: i), position > 0 {
            order.remove(at: position)
            order.insert(i, at: 0)
        }
        return order
    }

    /// What `openStream`'s attempt got: the first event of a live stream, or the whole of one read to its end.
    private enum OpenedStream {
        case live(first: ChatStreamEvent, iterator: ChatEventIterator)
        case whole([ChatStreamEvent])

        var isLive: Bool { if case .live = self { true } else { false } }
    }

    /// The attempt loop shared by both call styles. Returns the value of the first successful
    /// `call`, its target, and the lease that keeps the target's in-flight count until released.
    /// When `settlesLater` says so of the value (a live stream), its success is not told to the
    /// deployment's health here: the lease tells the stream's end (decision 0107). A failed answer (decision 0117) of a
    /// deployment that `escalates` is not tried again: it ends the call for the escalation.
    private func run<T>(_ request: ChatRequest, plan: RoutePlan, caller: String?, attempts: inout [AttemptRecord],
                        escalates: (RouteTarget) -> Bool, settlesLater: (T) -> Bool,
                        call: (any LLMClient, ChatRequest, RouteTarget) async throws -> T) async throws -> (T, RouteTarget, CallLease) {
        let names = plan.targets.map(\.qualifiedName)
        forgiveRenewedKeys(plan, names)
        var order = attemptOrder(plan, for: request)
        var policy = self.policy
        let lastResort = lastResortIndex(names, caller: caller)
        if let i = lastResort {
            // Every deployment is cooling down: one attempt, no retries, on the one that recovers first,
            // so the client gets the provider's own answer (error or not) without load amplification.
            for j in order where j != i {
                let left = health.remainingCooldown(names[j], caller: caller) ?? .zero
                attempts.append(AttemptRecord(deployment: names[j], outcome: .skipped(reason: RetrySchedule.SkipReason.coolingDown(remaining: left).description)))
            }
            order = [i]
            policy.maxAttempts = 1
        }
        var schedule = RetrySchedule(order: order, policy: policy, start: clock.now)
        var lastError: GatewayError?
        var shortestCooldown: Duration?
        while true {
            if Task.isCancelled { throw CancellationError() }
            let step = schedule.next(now: clock.now) { i in
                if lastResort != nil { return nil }
                if case .coolingDown(let remaining) = health.admit(names[i], caller: caller) { return .coolingDown(remaining: remaining) }
                return nil
            }
            switch step {
            case .giveUp:
                if let lastError { throw Self.gaveUp(lastError, attempts: attempts) }
                throw Self.allCoolingDown(plan, retryAfter: shortestCooldown)
            case .skip(let i, let reason):
                attempts.append(AttemptRecord(deployment: names[i], outcome: .skipped(reason: reason.description)))
                if case .coolingDown(let r) = reason { shortestCooldown = min(shortestCooldown ?? r, r) }
            case .attempt(let i, let wait):
                if wait > .zero { try await clock.sleep(for: wait) }
                let target = plan.targets[i]
                // A provider with a pool of keys: a key refused with 401 or 429 cools down on its own and
                // the same deployment is tried again at once with another ready key (each key at most
                // once), without counting against the deployment's health; each such call is one of the
                // request's `max_attempts`.
                var keysTried = 0
                while true {
                    let waited = keysTried == 0 ? wait : .zero
                    health.beginCall(names[i])
                    let lease = CallLease(health: health, deployment: names[i], caller: caller)
                    var key: KeyLease?
                    do {
                        let upstreamClient = try clients(target, schedule.deadline - clock.now)
                        key = upstreamClient.key
                        lease.hold(upstreamClient)
                        var upstream = request
                        upstream.model = target.model.id
                        let value = try await call(upstreamClient.llm, upstream, target)
                        if settlesLater(value) {
                            attempts.append(AttemptRecord(deployment: names[i], outcome: .succeeded(status: 200), waited: waited, key: key?.name,
                                                          streamEnd: lease.settlesAtStreamEnd()))
                        } else {
                            health.recordSuccess(names[i], caller: caller)
                            attempts.append(AttemptRecord(deployment: names[i], outcome: .succeeded(status: 200), waited: waited, key: key?.name))
                        }
                        return (value, target, lease)
                    } catch {
                        lease.release()
                        let e = GatewayError.from(error)
                        let refusesKey = key != nil && e.upstreamStatus != nil && (e.refusal == .key || KeyLease.refusesKey(status: e.upstreamStatus))
                        attempts.append(AttemptRecord(deployment: names[i], outcome: .failed(status: e.status, kind: e.kind), waited: waited, key: key?.name,
                                                      failedAnswer: e.failedAnswer, timedOutAfterSending: e.timedOutAfterSending, keyRefused: refusesKey))
                        if let key, e.upstreamStatus != nil,
                           key.reportFailure(refusesKey: refusesKey, retryAfter: e.retryAfter),
                           keysTried + 1 < key.members.count, !Task.isCancelled {
                            if schedule.takeImmediateAttempt(now: clock.now) {
                                keysTried += 1
                                continue
                            }
                            // `max_attempts` is spent while another key is ready: the key's refusal is still not the
                            // deployment's failure (decision 0110); the request ends with it.
                            health.releaseProbe(names[i], caller: caller)
                            lastError = e
                            break
                        }
                        lease.tellHealth(e)
                        guard FailureClassifier.movesOn(e), !Task.isCancelled, e.failedAnswer == nil || !escalates(target) else { throw e }
                        lastError = e
                        if FailureClassifier.excludesDeployment(e) {
                            schedule.exclude(i)
                        } else {
                            schedule.failed(i, error: e, now: clock.now, unitRandom: unitRandom())
                        }
                        break
                    }
                }
            }
        }
    }

    /// When every deployment of the plan is cooling down (for `caller`): the index of the one whose cooldown ends first.
    private func lastResortIndex(_ names: [String], caller: String?) -> Int? {
        var best: (Int, Duration)?
        for (i, name) in names.enumerated() {
            guard let left = health.remainingCooldown(name, caller: caller) else { return nil }
            if best == nil || left < best!.1 { best = (i, left) }
        }
        return best?.0
    }

    /// Ends the cooldown of each deployment of the plan whose provider refused a key that has a new secret since
    /// (decision 0115). While no deployment's last failure was a refused key, this is one atomic load per deployment.
    private func forgiveRenewedKeys(_ plan: RoutePlan, _ names: [String]) {
        for (i, target) in plan.targets.enumerated() where health.refusedKeyVersion(names[i]) != nil {
            if let current = keyVersion(target) { health.forgiveRenewedKey(names[i], currentKeyVersion: current) }
        }
    }

    /// The error a request ends with when its attempts are spent: the last attempt's, and for a failed answer (decision
    /// 0117) saying how many attempts ended so.
    static func gaveUp(_ last: GatewayError, attempts: [AttemptRecord]) -> GatewayError {
        guard last.failedAnswer != nil else { return last }
        let failed = attempts.filter { $0.failedAnswer != nil }.count
        guard failed > 1 else { return last }
        var e = last
        e.message = "\(failed) attempts ended without a usable answer; the last: " + e.message
        return e
    }

    /// Every deployment of the plan turned out to be cooling down and none was tried (a race with
    /// other requests between the check and the attempt).
    static func allCoolingDown(_ plan: RoutePlan, retryAfter: Duration?) -> GatewayError {
        let seconds = retryAfter.map { max(1, $0.resilienceSeconds.rounded(.up)) }
        return GatewayError(domain: .provider, kind: .upstreamUnavailable, status: 503,
                            message: "every deployment for \"\(plan.requested.isEmpty ? plan.explanation : plan.requested)\" (\(plan.targets.map(\.qualifiedName).joined(separator: ", "))) is cooling down after repeated failures; retry after \(Int(seconds ?? 1)) s or ask the operator to check the providers",
                            retryAfter: seconds)
    }
}

/// Keeps a deployment's in-flight count (and its pooled key's) raised until released (or dropped), and tells the
/// deployment's health how the call went. For a live stream that is the stream's end (decision 0107): its normal end
/// is the success, a failure because of the upstream after its first event counts as a failed attempt would, and a
/// stream left before its end (the client left, the token was revoked) tells nothing but frees a half-open probe.
final class CallLease: Sendable {
    private let health: DeploymentHealth
    private let deployment: String
    /// The client token whose request this is (nil: none), to which a failure that depends on the request is attributed.
    private let caller: String?
    /// The call's client: its pooled key, released with the call, and the provider's keys it found (whose version a
    /// key refusal tells).
    private let client = Mutex<UpstreamClient?>(nil)
    private let released = Atomic<Bool>(false)
    /// A live stream's end still to be told (where its failure is noted for the attempt's record); taken, so told
    /// once, by whichever of `streamSucceeded`, `streamFailed` and `release` comes first.
    private let untoldStreamEnd = Mutex<StreamEnd?>(nil)

    init(health: DeploymentHealth, deployment: String, caller: String? = nil) {
        self.health = health
        self.deployment = deployment
        self.caller = caller
    }

    /// Adds the call's client: its pooled key is released with the deployment's count.
    func hold(_ upstream: UpstreamClient) {
        client.locked { $0 = upstream }
    }

    /// The call became a live stream whose outcome is told by `streamSucceeded` or `streamFailed`; returns where its
    /// failure is noted for the attempt's log record.
    func settlesAtStreamEnd() -> StreamEnd {
        let end = StreamEnd()
        untoldStreamEnd.locked { $0 = end }
        return end
    }

    /// The stream reached its end (or an answer check, such as the invisible-call rule, ended it: the deployment
    /// answered): a success, which closes the breaker and resets the failure count.
    func streamSucceeded() {
        guard takeStreamEnd() != nil else { return }
        health.recordSuccess(deployment, caller: caller)
    }

    /// Reading the stream threw `error` after its first event: told to the health as a failed attempt's error would
    /// be, and noted in the attempt's record. A cancellation (the client left) tells nothing.
    func streamFailed(_ error: any Error) {
        guard let end = takeStreamEnd() else { return }
        let e = GatewayError.from(error)
        if e.kind == .cancelled || error is CancellationError || Task.isCancelled {
            health.releaseProbe(deployment, caller: caller)
            return
        }
        if e.domain == .provider { end.failed(status: e.status, kind: e.kind, failedAnswer: e.failedAnswer?.reason) }
        tellHealth(e)
    }

    /// The stream end not told yet, if any; nil from then on.
    private func takeStreamEnd() -> StreamEnd? {
        untoldStreamEnd.locked { end in
            defer { end = nil }
            return end
        }
    }

    /// Tells the deployment's health about a failed call: a retryable provider failure counts against it (attributed to
    /// the caller; a refusal of the key or model id is the deployment's whoever asked), another answer of the provider
    /// (a 4xx: the request was at fault; a failed answer, decision 0117) is a success, anything else only frees a probe.
    func tellHealth(_ e: GatewayError) {
        if FailureClassifier.countsAgainstHealth(e) {
            health.recordFailure(deployment, caller: e.refusal == nil ? caller : nil,
                                 keyVersion: e.refusal == .key ? client.locked { $0 }?.keyVersion : nil)
        } else if FailureClassifier.showsDeploymentAnswered(e) {
            health.recordSuccess(deployment, caller: caller)  // it answered; the request (or the model, at random) was at fault
        } else {
            health.releaseProbe(deployment, caller: caller)
        }
    }

    /// Ends the call; later calls do nothing. A live stream whose end was not told (left early) frees its probe.
    func release() {
        if !released.exchange(true, ordering: .acquiringAndReleasing) {
            if takeStreamEnd() != nil { health.releaseProbe(deployment, caller: caller) }
            health.endCall(deployment)
            client.locked { $0 }?.key?.release()
        }
    }

    deinit { release() }
}
