import Foundation
import Testing
import SkillGateRouting
@testable import SkillGateEval

/// The evaluation corpus keeps the shape the README's figures rest on: sizes, both languages,
/// every task kind with both labels, the skill categories, and a fixed dev/test split.
@Suite struct CorpusShapeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Eval").standardizedFileURL.path

    @Test func routingCorpusCoversBothLanguagesKindsAndLabelsWithAFixedSplit() throws {
        let corpus = try RoutingCorpus.load(directory: Self.root + "/routing")
        let held = try corpus.split("test")
        #expect(held.count >= 300)
        let base = corpus.examples.filter { !$0.id.hasPrefix("x") }  // the written corpus; train-extra-* files are dev-only additions
        #expect(base.count >= 600)
        #expect(Set(corpus.examples.map(\.id)).count == corpus.examples.count, "ids are unique")
        for lang in ["en", "zh"] {
            let l = base.filter { $0.lang == lang }
            #expect(l.count >= 300, "\(lang)")
            #expect(l.filter(\.strong).count >= 100, "\(lang) strong")
            for split in ["dev", "test"] { #expect(l.filter { $0.split == split }.count >= 150, "\(lang) \(split)") }
        }
        let kinds = Set(base.compactMap(\.kind))
        #expect(kinds.isSuperset(of: ["chitchat", "lookup", "rewrite", "translate", "extraction", "coding", "debugging", "math", "analysis", "planning", "followup", "tool_use"]))
        for kind in kinds {
            #expect(base.contains { $0.kind == kind && $0.strong } && base.contains { $0.kind == kind && !$0.strong }, "\(kind) has both labels")
        }
        #expect(base.contains { $0.request.messages.count > 2 }, "multi-turn items")
        #expect(base.contains { !$0.request.tools.isEmpty }, "items with tools")
        #expect(corpus.examples.allSatisfy { $0.split == "dev" || $0.split == "test" })
        #expect(corpus.examples.filter { $0.id.hasPrefix("x") }.allSatisfy { $0.split == "dev" }, "additions only ever train")
    }

    @Test func skillsCorpusHasTheCatalogAndEveryCategory() throws {
        let corpus = try SkillsCorpus.load(directory: Self.root + "/skills")
        #expect(corpus.tools.count >= 80)
        #expect(Set(corpus.tools.map(\.domain)).count >= 8)
        #expect(corpus.tools.filter { $0.lang == "zh" }.count >= 10)
        #expect(corpus.requests.count >= 400)
        let minimum = ["en": 100, "zh": 40, "cross": 100, "followup": 60, "none": 30]
        for (category, n) in minimum { #expect(corpus.requests.filter { $0.category == category }.count >= n, "\(category)") }
        #expect(corpus.requests.allSatisfy { $0.split == "dev" || $0.split == "test" })
        let noToolRequestsExpectNothing = corpus.requests.filter { $0.category == "none" }.allSatisfy { $0.expected.isEmpty }
        #expect(noToolRequestsExpectNothing)
        let lang = Dictionary(uniqueKeysWithValues: corpus.tools.map { ($0.definition.name, $0.lang) })
        for r in corpus.requests where r.category == "cross" {
            #expect(r.expected.allSatisfy { lang[$0] != r.lang }, "\(r.id): cross means the tool's language differs")
        }
        #expect(corpus.requests.contains { r in r.messages.contains { $0.content.contains { $0.toolCall != nil } } }, "follow-ups after tool calls")
    }
}
