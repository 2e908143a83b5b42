import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateEval
import SkillGateProviders
import SkillGateRouting
import SkillGateServer

/// `skillgate route explain|train`: how `"model": "auto"` routes a prompt, and fitting the
/// learned router to an operator's own labelled prompts.
enum RouteCommand {
    static let help = """
    Usage: skillgate route explain [--config PATH] [--scenario S] [--tier light|strong] "prompt"
           skillgate route train FILE.jsonl... [--out PATH] [--split dev|test|all] [--cv K]
                                 [--iterations N] [--l2-named X] [--l2-hashed X] [--strong-weight X] [--hash-bits N]

    explain  Scores the prompt as one user message the way the gateway scores `"model": "auto"`:
             the features (size, markers, demand: asks, constraints, supplied data, ...), each
             one's contribution, the n-grams that weigh most, p(strong) against the threshold,
             the chosen tier and its targets, and the x-skillgate-route header a client would see.
             A prompt of "-" is read from stdin. --scenario picks the scenario (default: the
             config's default_scenario); --tier simulates the x-skillgate-tier header.

    train    Fits the learned router (logistic regression over the named features and hashed
             word/character n-grams) to labelled prompts, one JSON object per line:
               {"label": "strong", "prompt": "Prove that ..."}
               {"label": "light", "messages": [{"role": "user", "content": "hi"}], "tools": [...]}
             and writes the model (default router-model.json). Point the config at it with
             "routing": {"model": "router-model.json"}. --split keeps only lines whose "split"
             is that value (default all). --cv K also prints K-fold cross-validated agreement,
             an estimate of how the model does on prompts it was not trained on.
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, options: ["--config", "--scenario", "--tier", "--out", "--split", "--cv", "--iterations",
                                                "--l2-named", "--l2-hashed", "--strong-weight", "--hash-bits", "--learning-rate"], flags: ["--misses"])
        if args.wantsHelp { print(help); return 0 }
        switch args.positionals.first {
        case "explain": return try explain(args)
        case "train": return try train(args)
        default: throw UsageError(message: "expected `route explain \"prompt\"` or `route train FILE.jsonl`")
        }
    }

    static func explain(_ args: Arguments) throws -> Int32 {
        var prompt = args.positionals.dropFirst().joined(separator: " ")
        if prompt == "-" {
            prompt = String(decoding: CLI.readStandardInput(), as: UTF8.self)
        }
        guard !prompt.isEmpty else { throw UsageError(message: "give the prompt to explain: skillgate route explain \"prove that ...\"") }
        let config = try CLI.loadConfig(args)
        let catalog = try ProviderCatalog.load(directory: config.providersDirectory)
        try config.validate(against: catalog)
        let resolver = ModelResolver(config: config, catalog: catalog)
        print(try resolver.explain(prompt: prompt, scenario: args.value("--scenario"), tierHeader: args.value("--tier")), terminator: "")
        return 0
    }

    static func train(_ args: Arguments) throws -> Int32 {
        let files = Array(args.positionals.dropFirst())
        guard !files.isEmpty else { throw UsageError(message: "give the labelled prompts: skillgate route train prompts.jsonl [--out router-model.json]") }
        var options = RouterTrainer.Options()
        func number(_ name: String) throws -> Double? {
            guard let v = args.value(name) else { return nil }
            guard let d = Double(v), d.isFinite, d >= 0 else { throw UsageError(message: "\(name) takes a non-negative number, got \"\(v)\"") }
            return d
        }
        if let v = try number("--iterations") {
            guard v <= 1_000_000 else { throw UsageError(message: "--iterations takes at most 1000000, got \(v)") }
            options.iterations = max(1, Int(v))
        }
        if let v = try number("--l2-named") { options.l2Named = v }
        if let v = try number("--l2-hashed") { options.l2Hashed = v }
        if let v = try number("--strong-weight") { options.strongWeight = v }
        if let v = try number("--learning-rate") { options.learningRate = v }
        if let v = try number("--hash-bits") {
            guard (8...24).contains(Int(v)) else { throw UsageError(message: "--hash-bits must be 8 to 24") }
            options.hashBits = Int(v)
        }
        let split = args.value("--split") ?? "all"
        var examples: [RoutingExample] = []
        for file in files { examples += try RoutingCorpus.loadFile(file) }
        examples = try RoutingCorpus(examples: examples).split(split)
        let strong = examples.filter(\.strong).count
        guard strong > 0, strong < examples.count else {
            throw UsageError(message: "the training prompts need both labels (light and strong); found \(strong) strong of \(examples.count)")
        }
        let trainer = RouterTrainer(options: options)
        if let k = args.value("--cv") {
            guard let folds = Int(k), folds >= 2, folds <= examples.count else { throw UsageError(message: "--cv takes a number of folds from 2 to the number of examples") }
            let p = trainer.crossValidate(examples, folds: folds)
            var e = RoutingEvaluation()
            for (x, prob) in zip(examples, p) { e.record(x, predictedStrong: prob >= options.threshold, score: prob) }
            printErr(e.render(title: "\(folds)-fold cross-validation on \(examples.count) prompts (\(options.summary))", listMisses: args.flags.contains("--misses")))
        }
        let names = files.map { FilePath.lastComponent($0) }.joined(separator: ",")
        let model = trainer.fit(examples, provenance: "\(names) split=\(split) examples=\(examples.count) strong=\(strong)")
        let out = args.value("--out") ?? "router-model.json"
        let bytes = model.json().serializedBytes()
        guard FileManager.default.createFile(atPath: out, contents: Data(bytes + [0x0A])) else {
            throw RuntimeError(message: "cannot write \(out); check the directory exists and is writable")
        }
        var fit = RoutingEvaluation()
        let scorer = TierRouter.learned(LearnedTierScorer(model: model))
        for x in examples { let d = scorer.decide(x.request); fit.record(x, predictedStrong: d.tier == .strong, score: d.score) }
        printErr("trained on \(examples.count) prompts (\(strong) strong): agreement on the training prompts \(EvalTable.ratio(fit.overall.hits, fit.overall.total)); wrote \(out)")
        return 0
    }
}

/// A failure that is not the user's usage error (exit code 1).
struct RuntimeError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
