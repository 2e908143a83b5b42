import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateRouting

/// The shipped model is what `scripts/train-router.sh` makes of the corpus: a fresh fit of the dev
/// split with the default options gives the same weights, so the model in the binary can always
/// be reproduced from the repository (and nobody edits weights by hand).
@Suite struct DefaultRouterModelTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Eval/routing").standardizedFileURL.path

    @Test func aFreshFitOfTheDevSplitGivesTheShippedWeights() async throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).filter { $0.hasSuffix(".jsonl") }.sorted()
        var examples: [RoutingExample] = []
        for f in files {
            let data = try #require(FileManager.default.contents(atPath: Self.corpus + "/" + f))
            examples += try RoutingExample.parseLines(Array(data), source: f)
        }
        let dev = examples.filter { $0.split == "dev" }
        #expect(dev.count >= 300, "the dev split is the training set")
        #expect(examples.filter { $0.split == "test" }.count >= 300, "the test split is held out")
        // Seconds of training in a debug build: on a thread of its own, not a cooperative-pool thread.
        let fresh = try await offThePool { RouterTrainer().fit(dev) }
        let shipped = DefaultRouterModel.model
        #expect(fresh.bias == shipped.bias)
        #expect(fresh.named == shipped.named)
        let differing = zip(fresh.hashed, shipped.hashed).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) bucket weights differ: run scripts/train-router.sh")
    }
}
