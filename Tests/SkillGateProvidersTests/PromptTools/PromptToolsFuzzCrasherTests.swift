import Testing
import SkillGateTestSupport
import SkillGateCore
@testable import SkillGateProviders

/// The `prompt-tools` fuzzing target's crashers (Fuzz/crashers/prompt-tools/): the tag and fence
/// readers return, and the stream parser gives the same answer (or error) whole, split where the
/// fuzzer split, and one scalar at a time.
@Suite struct PromptToolsFuzzCrasherTests {
    enum Outcome: Equatable {
        case answer([ContentBlock], calls: Int)
        case failed(String)
    }

    static func parse(_ pieces: [String]) -> Outcome {
        var parser = PromptToolStreamParser(offeredTools: ["get_weather", "search", "final_result", "f"], idPrefix: "call_fuzz_", provider: "fuzz")
        var accumulator = ChatResponseAccumulator()
        do {
            for piece in pieces { try parser.feed(piece).forEach { accumulator.apply($0) } }
            try parser.finish().forEach { accumulator.apply($0) }
        } catch {
            return .failed(String(describing: error))
        }
        return .answer(accumulator.content, calls: parser.callCount)
    }

    @Test(arguments: FuzzCrashers.names("prompt-tools"))
    func everySplitGivesTheSameAnswer(_ name: String) throws {
        let data = try FuzzCrashers.bytes("prompt-tools", name)
        _ = PromptToolCallParser.parseTagged(data[...])
        _ = PromptToolCallParser.parseFenced(data[...])
        _ = PromptToolCallParser.firstJSONObject(in: data[...])
        let text = String(decoding: data, as: UTF8.self)
        let scalars = Array(text.unicodeScalars)
        let whole = Self.parse([text])
        let (a, b) = FuzzCrashers.cuts(data)
        let (x, y) = (min(a, scalars.count), min(b, scalars.count))
        #expect(Self.parse([scalars[..<x], scalars[x..<y], scalars[y...]].map { String(String.UnicodeScalarView($0)) }) == whole)
        #expect(Self.parse(scalars.map { String($0) }) == whole)
    }
}
