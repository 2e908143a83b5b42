import SkillGateEval
import SkillGateServer
import SkillGateSkills

/// `skillgate eval skills`: recall@k of skill selection on the labelled corpus.
enum SkillsEvalCommand {
    static func run(_ args: Arguments, split: String) async throws -> Int32 {
        let k = try args.value("--k").map { v in
            guard let k = Int(v), k >= 1 else { throw UsageError(message: "--k takes a positive number, got \"\(v)\"") }
            return k
        } ?? 5
        let corpus = try SkillsCorpus.load(directory: args.value("--corpus") ?? "Tests/Eval/skills")
        let requests = try corpus.split(split)
        let candidates = SkillsEvaluation.candidates(corpus)
        let cache = SkillDocumentCache()
        let e = await SkillsEvaluation.run(requests, k: k) { r in
            let cut = SkillRelevance.select(candidates, query: SkillRelevance.query(from: r.messages), limit: k, pinned: [], cache: cache)
            return .init(kept: cut.kept, blind: cut.blind, ranking: "lexical")
        }
        print(e.render(title: "skills: \(requests.count) requests, \(candidates.count) tools, split \(split), ranking lexical",
                       listMisses: args.flags.contains("--misses")), terminator: "")
        return 0
    }
}
