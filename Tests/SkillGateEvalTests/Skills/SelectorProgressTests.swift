import Testing
@testable import SkillGateEval

/// `skillgate eval skills` with a selector reports progress, since each request is a slow, paid model call.
@Suite struct SelectorProgressTests {
    /// The lines a progress over `total` requests writes when `failures` (request numbers, from 1) got no answer.
    static func lines(total: Int, every: Int, failures: Set<Int> = []) -> [String] {
        var written: [String] = []
        let progress = SelectorProgress(total: total, every: every) { written.append($0) }
        for n in 1...total { progress.ranked(failed: failures.contains(n)) }
        return written
    }

    @Test(arguments: [(total: 10, every: 5, lines: 2), (total: 11, every: 5, lines: 3), (total: 3, every: 25, lines: 1),
                      (total: 4, every: 1, lines: 4), (total: 5, every: 0, lines: 5)])
    func aLineEveryFewRequestsAndAfterTheLast(_ c: (total: Int, every: Int, lines: Int)) {
        let written = Self.lines(total: c.total, every: c.every)
        #expect(written.count == c.lines)
        #expect(written.last?.hasPrefix("selector: \(c.total) of \(c.total) requests ranked") == true)
    }

    @Test func countsTheCallsThatGaveNoUsableAnswer() {
        let written = Self.lines(total: 6, every: 3, failures: [2, 5, 6])
        #expect(written.count == 2)
        #expect(written[0].hasPrefix("selector: 3 of 6 requests ranked, 1 without a usable answer, "))
        #expect(written[1].hasPrefix("selector: 6 of 6 requests ranked, 3 without a usable answer, "))
        #expect(written[1].hasSuffix(" s so far"))
    }
}
