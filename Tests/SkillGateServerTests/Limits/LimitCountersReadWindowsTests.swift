import Foundation
import Synchronization
import Testing
import SkillGateState
@testable import SkillGateServer

/// When a subject's counts must be read from the ledger before a request is judged on them (decision 0105): for every
/// window its limits count in, even one its limits gained after the first read, and again after a subject was idle for
/// twice the re-read interval (other processes may have spent meanwhile).
@Suite struct LimitCountersReadWindowsTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static let app = LimitSubject(kind: .token, id: "tok_1", name: "app")

    /// A token that had only a per-minute limit, then got a budget (`tokens update --budget-day`): what it spent today
    /// before this process started counts against the budget at once. Before, only the minute had been read, and the
    /// budget started from what this process saw.
    @Test func aBudgetAddedLaterIsReadBeforeItIsChecked() async throws {
        let reads = Mutex<[Date]>([])
        let counters = LimitCounters(now: { Self.start }) { _, since in
            reads.locked { $0.append(since) }
            // $2.886 spent today (and this month), 1 request this minute.
            return UsageSummary(requests: 1, inputTokens: 0, outputTokens: 0, costMicrodollars: 2_886_000)
        }
        _ = try await counters.admit([(Self.app, TokenLimits(requestsPerMinute: 100))], stream: false)
        #expect(reads.locked { $0.count } == 1, "only the minute read")
        let withBudget = TokenLimits(requestsPerMinute: 100, budgetUSDPerDay: 1)
        guard case .unread = try counters.admitWithoutReading([(Self.app, withBudget)], stream: false) else {
            Issue.record("a budget was checked without reading the day's spend")
            return
        }
        do {
            _ = try await counters.admit([(Self.app, withBudget)], stream: false)
            Issue.record("admitted over a budget already spent")
        } catch {
            #expect(error.limit == .budgetPerDay)
        }
        // One more read, of every window the limits now count in: the minute, the day and the month.
        #expect(reads.locked { $0.count } == 4, "the day and the month read once the budget came")
        // Read now: the next request is judged without another read.
        _ = try? await counters.admit([(Self.app, withBudget)], stream: false)
        #expect(reads.locked { $0.count } == 4)
    }

    /// Another instance spent the budget while this one saw no request of the token: after two re-read intervals
    /// without a read, a burst of requests waits for one read and is refused whole. Before, the first request started a
    /// re-read in the background and every request that came before it landed was judged on the old counts.
    @Test func aSubjectIdleForTwoRereadIntervalsIsReadBeforeItsNextRequest() async throws {
        let clock = Mutex(Self.start)
        let spentElsewhere = Mutex<Int64>(0)
        let reads = Mutex(0)
        let counters = LimitCounters(now: { clock.locked { $0 } }, rereadEvery: .seconds(1)) { _, _ in
            reads.locked { $0 += 1 }
            usleep(50_000)  // a store answering in 50 ms
            return UsageSummary(requests: 0, inputTokens: 0, outputTokens: 0, costMicrodollars: spentElsewhere.locked { $0 })
        }
        let limits = TokenLimits(budgetUSDPerDay: 1)
        _ = try await counters.admit([(Self.app, limits)], stream: false)
        spentElsewhere.locked { $0 = 3_000_000 }
        clock.locked { $0 = $0.addingTimeInterval(6) }
        let admitted = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<10 {
                group.addTask { (try? await counters.admit([(Self.app, limits)], stream: false)) == nil ? 0 : 1 }
            }
            return await group.reduce(0, +)
        }
        #expect(admitted == 0, "\(admitted) of 10 were judged on counts six seconds old")
        // A read of a budget is two sums (the day's and the month's): the first read, then one for the whole burst.
        #expect(reads.locked { $0 } == 4, "one read served the burst")
    }

    /// Under steady traffic the counts never go stale: a request within twice the interval is judged at once, and the
    /// due re-read runs beside it.
    @Test func aSubjectReadWithinTwoIntervalsIsJudgedAtOnce() async throws {
        let clock = Mutex(Self.start)
        let counters = LimitCounters(now: { clock.locked { $0 } }, rereadEvery: .seconds(1)) { _, _ in
            UsageSummary(requests: 0, inputTokens: 0, outputTokens: 0, costMicrodollars: 0)
        }
        let limits = TokenLimits(budgetUSDPerDay: 1)
        _ = try await counters.admit([(Self.app, limits)], stream: false)
        clock.locked { $0 = $0.addingTimeInterval(1.9) }
        guard case .admitted = try counters.admitWithoutReading([(Self.app, limits)], stream: false) else {
            Issue.record("a request waited for a read of counts 1.9 s old")
            return
        }
    }
}
