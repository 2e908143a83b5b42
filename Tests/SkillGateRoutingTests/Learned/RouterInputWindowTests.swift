import Testing
import SkillGateCore
@testable import SkillGateRouting

/// The router reads a long task through `RouterInput.textWindow` (decision 0078).
@Suite struct RouterInputWindowTests {
    /// An ask, ~460 KB of pasted lines each with a word of its own (and one strong marker deep inside), and a last line.
    static let longTask = "Summarise this log for the release notes:\n"
        + (0..<30_000).map { $0 == 15_000 ? "prove by induction that the proof is correct" : "entry \(word($0)) ok" }.joined(separator: "\n")
        + "\nKeep it to three bullet points."

    /// A word of letters only, different for each `n` ("qxa", "qxb", ...): no tokenizer folds two of them together.
    static func word(_ n: Int) -> String {
        var n = n, letters = ""
        repeat { letters.append(Character(Unicode.Scalar(UInt8(97 + n % 26)))); n /= 26 } while n > 0
        return "qx" + letters
    }

    private func request(_ text: String) -> ChatRequest { ChatRequest(model: "auto", messages: [Message(role: .user, text: text)]) }

    @Test func aLongTaskReachesTheRouterAsItsWindow() {
        let whole = RouterInput(request: request(Self.longTask), hashBits: 12)
        let window = RouterInput(request: request(RouterInput.textWindow.apply(Self.longTask)), hashBits: 12)
        // Compared as Booleans: a failure would otherwise print thousands of buckets.
        let sameBuckets = whole.buckets == window.buckets, sameValues = whole.values == window.values
        #expect(sameBuckets, "the whole task gave \(whole.buckets.count) n-gram buckets, its window \(window.buckets.count)")
        #expect(sameValues)
        #expect(whole.task.scan == window.task.scan)
        // The sizes and the pasted share are read from the whole text: they cost nothing to read whole.
        let fromWholeText: Set<RouterFeature> = [.contextSize, .pasted, .lightOverPasted]
        for feature in RouterFeature.allCases where !fromWholeText.contains(feature) {
            #expect(whole[feature] == window[feature], "\(feature)")
        }
        #expect(whole[.taskSize] == 1)
        #expect(whole[.contextSize] > window[.contextSize])
    }

    @Test func aMarkerDeepInsideAPasteIsNotRead() {
        #expect(TaskFeatures(request: request(Self.longTask)).scan.strengths.reasoning == 0)
        #expect(TaskFeatures(request: request("prove by induction that the proof is correct")).scan.strengths.reasoning > 0)
    }

    @Test func aTaskWithinTheWindowIsReadWhole() {
        let text = "Prove by induction that this terminates:\n" + String(repeating: "step ok\n", count: 1_000)
        #expect(RouterInput.textWindow.apply(text) == text)
        #expect(TaskFeatures(request: request(text)).scan.strengths.reasoning > 0)
    }
}
