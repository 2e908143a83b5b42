import Foundation
import Testing
import SkillGateTestSupport
import SkillGateCore
import SkillGateSkills
@testable import SkillGateEval

/// `eval skills --dump-scores`: the lines hold what offline tuning needs, and the scores are the ranking's own.
@Suite struct ScoreDumpTests {
    @Test func eachRequestHasItsScorePerToolAndTheTextsAnEmbeddingModelSees() async throws {
        // Loading the corpus and scoring it is seconds of work in a debug build: done on a thread of its own.
        let (requests, candidates, dump) = try await offThePool {
            let corpus = try SkillsCorpus.load(directory: CorpusShapeTests.root + "/skills")
            let requests = Array(try corpus.split("dev").prefix(12))
            let candidates = SkillsEvaluation.candidates(corpus)
            return (requests, candidates, SkillsEvaluation.scoreDump(requests, candidates))
        }
        let lines = dump.split(separator: 0x0A).map { try? JSONValue.parse(Array($0)) }
        #expect(lines.count == requests.count + 1)
        let first = lines[0]
        let tools = try #require(first?["tools"]?.arrayValue)
        #expect(tools.map { $0["name"]?.stringValue } == candidates.map(\.name))
        #expect(tools.map { $0["text"]?.stringValue } == candidates.map(\.embeddingText))
        for (request, line) in zip(requests, lines.dropFirst()) {
            let line = try #require(line)
            #expect(line["id"]?.stringValue == request.id && line["split"]?.stringValue == "dev")
            #expect(line["semantic_query"]?.stringValue == SkillRelevance.semanticQuery(from: request.messages))
            let lexical = line["lexical"]?.arrayValue?.compactMap(\.doubleValue)
            let scores = try #require(lexical)
            #expect(scores.count == candidates.count)
            // The best-scored tools are the ones the lexical ranking keeps.
            let kept = SkillRelevance.select(candidates, query: SkillRelevance.query(from: request.messages), limit: 5, pinned: []).kept
            let top = Set(candidates.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }.prefix(5).map { candidates[$0].name })
            #expect(Set(kept) == top, "\(request.id)")
        }
    }
}
