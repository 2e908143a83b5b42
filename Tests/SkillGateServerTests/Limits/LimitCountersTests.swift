import Foundation
import Synchronization
import Testing
import SkillGateState
@testable import SkillGateServer

/// The limit counters alone, on a manual clock.
@Suite struct LimitCountersTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28T20:26:40Z
    static let app = LimitSubject(kind: .token, id: "tok_1", name: "app")

    @Test func concurrencySlotsFreeWhenRequestsEnd() async throws {
        let counters = LimitCounters(now: { Self.start })
        let limits = TokenLimits(concurrentRequests: 2)
        let a = try await counters.admit([(Self.app, limits)], stream: false)
        _ = try await counters.admit([(Self.app, limits)], stream: false)
        await #expect(throws: LimitRejection.self) { try await counters.admit([(Self.app, limits)], stream: false) }
        counters.release(a, tokens: 0, costMicrodollars: 0)
        _ = try await counters.admit([(Self.app, limits)], stream: false)
    }

    @Test func streamsAreLimitedApartFromRequests() async throws {
        let counters = LimitCounters(now: { Self.start })
        let limits = TokenLimits(concurrentStreams: 1)
        _ = try await counters.admit([(Self.app, limits)], stream: true)
        _ = try await counters.admit([(Self.app, limits)], stream: false)
        do {
            _ = try await counters.admit([(Self.app, limits)], stream: true)
            Issue.record("a second stream was admitted")
        } catch {
            #expect(error.limit == .concurrentStreams)
            #expect(error.retryAfter == 1)
            #expect(error.message.contains("a slot frees when one of them ends"))
        }
    }

    /// A request over several limits is told about the one that frees last (decision 0146): over its requests per minute
    /// and its day's budget, it is told to come back at midnight, not in seconds (to be refused again, all day); over a
    /// scenario's concurrency and its token's monthly budget, the month. Before, the first limit in a fixed order won.
    @Test func theLimitThatFreesLastIsTheOneNamed() async throws {
        let counters = LimitCounters(now: { Self.start })
        let limits = TokenLimits(requestsPerMinute: 1, budgetUSDPerDay: 1)
        let spent = try await counters.admit([(Self.app, limits)], stream: false)
        counters.release(spent, tokens: 10, costMicrodollars: 2_000_000)
        do {
            _ = try await counters.admit([(Self.app, limits)], stream: false)
            Issue.record("admitted over both limits")
        } catch {
            #expect(error.limit == .budgetPerDay, "\(error.message)")
            #expect(error.retryAfter > 3_600, "Retry-After \(error.retryAfter) s: the budget frees at midnight UTC")
        }
        let scenario = LimitSubject(kind: .scenario, id: "s", name: "s")
        let monthly = TokenLimits(budgetUSDPerMonth: 1)
        let held = try await counters.admit([(scenario, TokenLimits(concurrentRequests: 1)), (Self.app, TokenLimits())], stream: false)
        let other = LimitSubject(kind: .token, id: "tok_2", name: "other")
        let paid = try await counters.admit([(other, monthly)], stream: false)
        counters.release(paid, tokens: 0, costMicrodollars: 1_000_000)
        do {
            _ = try await counters.admit([(scenario, TokenLimits(concurrentRequests: 1)), (other, monthly)], stream: false)
            Issue.record("admitted over both limits")
        } catch {
            #expect(error.limit == .budgetPerMonth && error.subject == other, "\(error.message)")
        }
        counters.release(held, tokens: 0, costMicrodollars: 0)
    }

    @Test func tokensPerMinuteCountAnswersAndResetWithTheMinute() async throws {
        let now = ManualWallClock(Self.start)
        let counters = LimitCounters(now: { now.now })
        let limits = TokenLimits(tokensPerMinute: 100)
        let t = try await counters.admit([(Self.app, limits)], stream: false)
        counters.release(t, tokens: 150, costMicrodollars: 0)  // overshoot by its own tokens
        await #expect(throws: LimitRejection.self) { try await counters.admit([(Self.app, limits)], stream: false) }
        now.advance(20)
        _ = try await counters.admit([(Self.app, limits)], stream: false)
    }

    /// The overshoot rule: requests admitted while under budget may each finish, so the spend ends at most their
    /// own costs above the budget; after that nothing is admitted.
    @Test(arguments: [2, 4, 16])
    func overshootIsAtMostTheCostOfWhatWasInFlight(_ inFlight: Int) async throws {
        let counters = LimitCounters(now: { Self.start })
        let limits = TokenLimits(budgetUSDPerDay: 1.0)
        let tickets = try await admitted(inFlight, counters, limits)
        for t in tickets { counters.release(t, tokens: 10, costMicrodollars: 600_000) }
        let spent = await counters.status(Self.app, limits).first { $0.limit == .budgetPerDay }?.used ?? 0
        #expect(spent <= 1_000_000 + Int64(inFlight) * 600_000)
        await #expect(throws: LimitRejection.self) { try await counters.admit([(Self.app, limits)], stream: false) }
    }

    /// A window's sums are held within 64 bits: tokens and costs at the bounds once trapped the next release
    /// (decision 0096), and the subject is then simply over its limits.
    @Test func windowsHoldAtTheBoundsInsteadOfTrapping() async throws {
        let counters = LimitCounters(now: { Self.start })
        let limits = TokenLimits(tokensPerMinute: .max, budgetUSDPerDay: TokenLimits.maximumBudgetUSD)
        let tickets = try await admitted(3, counters, limits)
        for t in tickets { counters.release(t, tokens: .max, costMicrodollars: .max) }
        let status = await counters.status(Self.app, limits)
        #expect(status.first { $0.limit == .tokensPerMinute }?.used == .max)
        #expect(status.first { $0.limit == .budgetPerDay }?.used == .max)
        await #expect(throws: LimitRejection.self) { try await counters.admit([(Self.app, limits)], stream: false) }
    }

    @Test func aMonthlyBudgetResetsOnTheFirstOfTheMonthUTC() async throws {
        let now = ManualWallClock(Self.start)
        let counters = LimitCounters(now: { now.now })
        let limits = TokenLimits(budgetUSDPerMonth: 0.5)
        let t = try await counters.admit([(Self.app, limits)], stream: false)
        counters.release(t, tokens: 0, costMicrodollars: 600_000)
        do {
            _ = try await counters.admit([(Self.app, limits)], stream: false)
            Issue.record("admitted over budget")
        } catch {
            #expect(error.message.contains("resets at 2026-06-01T00:00:00Z"), "\(error.message)")
            #expect(error.gatewayError.status == 429)
        }
        now.set(LimitWindows.monthStart(LimitWindows.month(Self.start) + 1))
        _ = try await counters.admit([(Self.app, limits)], stream: false)
    }

    @Test func aRefusalCountsNothing() async throws {
        let counters = LimitCounters(now: { Self.start })
        let scenario = LimitSubject(kind: .scenario, id: "chat", name: "chat")
        _ = try await counters.admit([(Self.app, TokenLimits(requestsPerMinute: 5)), (scenario, TokenLimits(requestsPerMinute: 1))], stream: false)
        await #expect(throws: LimitRejection.self) {
            try await counters.admit([(Self.app, TokenLimits(requestsPerMinute: 5)), (scenario, TokenLimits(requestsPerMinute: 1))], stream: false)
        }
        #expect(await counters.status(Self.app, TokenLimits(requestsPerMinute: 5)).first?.used == 1)
    }
}

extension LimitCountersTests {
    /// `count` admissions of `app` against `limits`, one after another.
    func admitted(_ count: Int, _ counters: LimitCounters, _ limits: TokenLimits) async throws -> [LimitTicket] {
        var tickets: [LimitTicket] = []
        for _ in 0..<count { tickets.append(try await counters.admit([(Self.app, limits)], stream: false)) }
        return tickets
    }
}

/// A subject's first read from the ledger is never made on the request path's thread (decision 0086): the path's
/// `admitWithoutReading` gives `.unread`, and `admit` awaits one read on the counters' queue, shared by every request
/// of that subject that comes meanwhile.
@Suite struct LimitCountersFirstReadTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static let app = LimitSubject(kind: .token, id: "tok_1", name: "app")

    @Test func theRequestPathNeverReadsTheLedger() async throws {
        let reads = Mutex(0)
        let counters = LimitCounters(now: { Self.start }) { _, _ in
            reads.locked { $0 += 1 }
            return UsageSummary(requests: 3, inputTokens: 0, outputTokens: 0, costMicrodollars: 0)
        }
        let limits = TokenLimits(requestsPerMinute: 4)
        guard case .unread(let unread) = try counters.admitWithoutReading([(Self.app, limits)], stream: false) else {
            Issue.record("a subject never read was admitted without its ledger counts")
            return
        }
        #expect(reads.locked { $0 } == 0, "the request path read the ledger")
        await counters.readFirst(unread)
        #expect(reads.locked { $0 } == 1)
        // The ledger's 3 requests this minute count: one more fits, the next is over 4.
        guard case .admitted = try counters.admitWithoutReading([(Self.app, limits)], stream: false) else {
            Issue.record("not admitted once read")
            return
        }
        #expect(throws: LimitRejection.self) { try counters.admitWithoutReading([(Self.app, limits)], stream: false) }
        #expect(reads.locked { $0 } == 1, "read once per subject")
    }

    @Test func requestsOfOneSubjectAwaitOneRead() async throws {
        let reads = Mutex(0)
        let counters = LimitCounters(now: { Self.start }) { _, _ in
            reads.locked { $0 += 1 }
            usleep(200_000)  // a store answering in 200 ms
            return UsageSummary(requests: 5, inputTokens: 0, outputTokens: 0, costMicrodollars: 0)
        }
        let limits = TokenLimits(requestsPerMinute: 100)
        let admitted = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 {
                group.addTask { _ = try await counters.admit([(Self.app, limits)], stream: false); return 1 }
            }
            return try await group.reduce(0, +)
        }
        #expect(admitted == 10)
        #expect(reads.locked { $0 } == 1, "one read served every request that came while it ran")
        let used = await counters.status(Self.app, limits).first?.used
        #expect(used == 15, "the ledger's 5 and the 10 admitted")
    }

    @Test func aFailedReadCountsFromZeroAndDoesNotReadAgain() async throws {
        let reads = Mutex(0)
        let counters = LimitCounters(now: { Self.start }) { _, _ in
            reads.locked { $0 += 1 }
            return nil  // the store cannot be read
        }
        let limits = TokenLimits(requestsPerMinute: 2)
        _ = try await counters.admit([(Self.app, limits)], stream: false)
        _ = try await counters.admit([(Self.app, limits)], stream: false)
        await #expect(throws: LimitRejection.self) { try await counters.admit([(Self.app, limits)], stream: false) }
        #expect(reads.locked { $0 } == 1)
    }
}

/// Re-reads of a shared ledger (several instances) run off the request path, one at a time per process.
@Suite struct LimitCountersRereadTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static let app = LimitSubject(kind: .token, id: "tok_1", name: "app")

    @Test func aSlowStoreNeverHoldsARequestAfterTheFirstRead() async throws {
        let clock = Mutex(Self.start)
        let reads = Mutex((running: 0, most: 0, total: 0))
        let counters = LimitCounters(now: { clock.locked { $0 } }, rereadEvery: .seconds(1)) { _, _ in
            reads.locked { $0.running += 1; $0.most = max($0.most, $0.running); $0.total += 1 }
            usleep(300_000)  // a store answering in 300 ms
            reads.locked { $0.running -= 1 }
            return UsageSummary(requests: 7, inputTokens: 0, outputTokens: 0, costMicrodollars: 0)
        }
        let limits = TokenLimits(requestsPerMinute: 1000)
        _ = try await counters.admit([(Self.app, limits)], stream: false)  // the first read: before admitting
        #expect(reads.locked { $0.total } == 1)
        clock.locked { $0 = $0.addingTimeInterval(1.5) }           // a re-read is due
        let started = ContinuousClock.now
        for _ in 0..<20 { _ = try await counters.admit([(Self.app, limits)], stream: false) }
        #expect(ContinuousClock.now - started < .milliseconds(250), "20 admissions waited for the store")
        try await Task.sleep(for: .milliseconds(700))
        let seen = reads.locked { $0 }
        #expect(seen.total == 2 && seen.most == 1, "one re-read, not one per request: \(seen)")
    }

    @Test func theReadsSumsCountWhenTheyLand() async throws {
        let clock = Mutex(Self.start)
        let ledger = Mutex(0)
        let counters = LimitCounters(now: { clock.locked { $0 } }, rereadEvery: .seconds(1)) { _, _ in
            UsageSummary(requests: ledger.locked { $0 }, inputTokens: 0, outputTokens: 0, costMicrodollars: 0)
        }
        let limits = TokenLimits(requestsPerMinute: 100)
        _ = try await counters.admit([(Self.app, limits)], stream: false)
        ledger.locked { $0 = 100 }                                 // another instance admitted a hundred this minute
        clock.locked { $0 = $0.addingTimeInterval(1.5) }
        var admitted = 0
        while admitted < 100, (try? await counters.admit([(Self.app, limits)], stream: false)) != nil {
            admitted += 1  // the first starts the re-read and goes on with the old counts
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(admitted < 20, "the shared count landed after \(admitted) more admissions (this process's own: 1)")
    }

    /// A wall clock set back (an NTP step, a resumed VM) does not stop the re-reads until it catches up again.
    @Test func aClockSetBackStillRereads() async throws {
        let clock = Mutex(Self.start)
        let reads = Mutex(0)
        let counters = LimitCounters(now: { clock.locked { $0 } }, rereadEvery: .seconds(1)) { _, _ in
            reads.locked { $0 += 1 }
            return UsageSummary(requests: 0, inputTokens: 0, outputTokens: 0, costMicrodollars: 0)
        }
        let limits = TokenLimits(requestsPerMinute: 1000)
        _ = try await counters.admit([(Self.app, limits)], stream: false)
        clock.locked { $0 = $0.addingTimeInterval(-3_600) }
        _ = try await counters.admit([(Self.app, limits)], stream: false)
        let deadline = ContinuousClock.now + .seconds(5)
        while reads.locked({ $0 }) < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(reads.locked { $0 } == 2, "no re-read after the clock went back an hour")
    }
}
