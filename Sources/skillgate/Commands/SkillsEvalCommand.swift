import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateEval
import SkillGateHTTP
import SkillGateKeys
import SkillGateServer
import SkillGateSkills
import SkillGateState

/// `skillgate eval skills`: recall@k of skill selection on the labelled corpus, with the config's
/// ranking (hybrid when `skill_ranking.embeddings` is set), without the embedding model (`--lexical`:
/// BM25 and the built-in word vectors), or BM25 alone (`--bm25`). With `skill_ranking.selector` in the
/// config (and neither flag), the selector model chooses too: each request costs one chat call.
enum SkillsEvalCommand {
    static func run(_ args: Arguments, split: String) async throws -> Int32 {
        let k = try args.value("--k").map { v in
            guard let k = Int(v), k >= 1 else { throw UsageError(message: "--k takes a positive number, got \"\(v)\"") }
            return k
        } ?? 5
        let corpus = try SkillsCorpus.load(directory: args.value("--corpus") ?? "Tests/Eval/skills")
        let requests = try corpus.split(split)
        let candidates = SkillsEvaluation.candidates(corpus)
        let config = try CLI.loadConfig(args)
        let http = HTTPClient()
        defer { http.shutdown() }
        let ranker: SkillRanker
        if args.flags.contains("--bm25") {
            ranker = .bm25
        } else if args.flags.contains("--lexical") {
            ranker = SkillRanker(scorer: nil, wordVectors: config.skillRanking.wordVectors ? WordVectorScorer.builtIn : nil)
        } else {
            // Vectors are cached in memory only: an evaluation must not depend on an earlier run's cache. The skills'
            // example requests (`skill_ranking.examples`: a chat call per skill, at temperature 0) are kept in the
            // config's state directory, so dev and test are ranked with the same examples.
            let examplesStore = try config.skillRanking.examples.map { _ in try SQLiteStateStore(stateDirectory: config.stateDirectory) }
            ranker = try SkillRanker(config: config, keys: try KeyStore(path: config.keyFile), stateStore: nil,
                                     examplesStore: examplesStore, http: http)
        }
        if let path = args.value("--dump-scores") {
            try dumpScores(requests, candidates, to: path)
            return 0
        }
        if ranker.scorer != nil {
            if let examples = config.skillRanking.examples {
                printErr("writing example requests for skills without stored ones (\(examples.model), one chat call per skill, "
                         + "at most \(examples.maxPerHour) skills an hour: skill_ranking.examples.max_per_hour)...")
                let counts = await ranker.writeExamples(for: candidates)
                printErr("examples: \(counts.written) skills written, \(counts.failed) failed"
                         + (counts.embedding.map { "; embedding them failed: \($0.description)" } ?? ""))
            }
            try await warmUp(ranker, candidates, k: k)
        }
        // A selector model is asked once per request (its calls cost money): no second pass for the timing.
        // Its calls take seconds each, so progress goes to stderr (the report on stdout stays diffable).
        let progress = ranker.selectorSettings.map { _ in SelectorProgress(total: requests.count, write: printErr) }
        let e = await SkillsEvaluation.run(requests, k: k, timingPass: ranker.selectorSettings == nil) { r in
            let ranking = await ranker.select(candidates, messages: r.messages, limit: k, pinned: [])
            progress?.ranked(failed: ranking.selection?.failureReason != nil)
            return .init(kept: ranking.cut.kept, blind: ranking.cut.blind,
                         ranking: ranking.mode.label + (ranking.selection.map { " + selector=" + $0.label } ?? ""),
                         askedSelector: ranking.selection != nil, selectorUsage: ranking.selection?.usage,
                         selectorCostUSD: ranking.selection?.costUSD)
        }
        var mode = ranker.scorer != nil ? "hybrid (\(config.skillRanking.embeddings?.model ?? "?"))"
            : ranker.wordVectors != nil ? "lexical (bm25 + word vectors)" : "bm25"
        if let selector = ranker.selectorSettings { mode += " + selector (\(selector.model), top \(selector.candidates))" }
        print(e.render(title: "skills: \(requests.count) requests, \(candidates.count) tools, split \(split), ranking \(mode)",
                       listMisses: args.flags.contains("--misses")), terminator: "")
        return 0
    }

    /// `--dump-scores FILE`: `SkillsEvaluation.scoreDump` written to a file.
    static func dumpScores(_ requests: [SkillsCorpus.Request], _ candidates: [SkillCandidate], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(SkillsEvaluation.scoreDump(requests, candidates))) else {
            throw RuntimeError(message: "cannot write \(path); check the directory exists and is writable")
        }
    }

    /// Embeds the catalog (and the skills' example requests) once before measuring (a gateway that has
    /// served these tools before has their vectors), waiting up to a minute for the embedding server.
    static func warmUp(_ ranker: SkillRanker, _ candidates: [SkillCandidate], k: Int) async throws {
        let probe = [Message(role: .user, text: "warm up")]
        for _ in 0..<120 {
            let r = await ranker.select(candidates, messages: probe, limit: k, pinned: [], askSelector: false)
            if r.usedSemantic && r.examples != .pending { return }
            try await Task.sleep(for: .milliseconds(500))
        }
        throw RuntimeError(message: "the embedding model did not answer within a minute (or some skill has no examples: see the line above); is it running? (scripts/e5-server.sh start), or pass --lexical")
    }
}
