import FoundationEssentials
import Glibc
import Dispatch
import SkillGateEval
import SkillGateRouting
import SkillGateServer

/// `skillgate eval routing|skills`: scores the gateway's decisions on the labelled corpus.
enum EvalCommand {
    static let help = """
    Usage: skillgate eval routing [--config PATH] [--corpus DIR] [--split dev|test|all] [--misses]
           skillgate eval skills  [--config PATH] [--corpus DIR] [--split dev|test|all] [--k N] [--lexical | --bm25]
                                  [--misses] [--dump-scores FILE]

    routing  Decides light or strong for every labelled prompt of the corpus (default
             Tests/Eval/routing) with the config's router (routing.model), and prints agreement
             overall, per class, per language and per task kind, and the time per decision.
    skills   Ranks the corpus's tool catalog (default Tests/Eval/skills) for every labelled request
             and prints recall@k (the expected tools all among the k shown) for English, Chinese,
             cross-lingual and follow-up requests, the mean number of tools shown, how often the cut
             was blind, and the time per decision. Uses the config's skill_ranking (embeddings)
             unless --lexical (BM25 fused with the built-in word vectors, as without an embedding
             model) or --bm25 (BM25 alone). With skill_ranking.selector the model is asked once
             per request, and a progress line goes to stderr every 25 requests.
    --split  dev (tune on it), test (report it; the default), or all. --misses lists the misses.
    --dump-scores FILE  writes, instead of the report, one JSON line per request with its BM25
             score per tool and the texts an embedding model would see (for tuning offline, on dev).
    The output is plain text with a fixed layout, so two builds' reports can be diffed.
    """

    static func run(_ raw: [String]) async throws -> Int32 {
        let args = try Arguments(raw, options: ["--config", "--corpus", "--split", "--k", "--dump-scores"], flags: ["--lexical", "--bm25", "--misses"])
        if args.wantsHelp { print(help); return 0 }
        let split = args.value("--split") ?? "test"
        switch args.positionals.first {
        case "routing":
            let config = try CLI.loadConfig(args)
            let corpus = try RoutingCorpus.load(directory: args.value("--corpus") ?? "Tests/Eval/routing")
            let examples = try corpus.split(split)
            let e = RoutingEvaluation.run(config.routing.router, on: examples)
            print(e.render(title: "routing: \(examples.count) prompts, split \(split), router \(config.routing.source)", listMisses: args.flags.contains("--misses")), terminator: "")
            return 0
        case "skills":
            return try await SkillsEvalCommand.run(args, split: split)
        default:
            throw UsageError(message: "expected `eval routing` or `eval skills`")
        }
    }
}
