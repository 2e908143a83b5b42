import Foundation
import SkillGateProviders
import SkillGateServer

/// `skillgate route explain`: how `"model": "auto"` would route a prompt, and why.
enum RouteCommand {
    static let help = """
    Usage: skillgate route explain [--config PATH] [--scenario S] [--tier light|strong] "prompt"

    Scores the prompt as one user message the way the gateway scores `"model": "auto"`: prints the
    features (size, markers, code blocks, ...), each feature's contribution (weight x level), the
    score against routing.strong_threshold, the chosen tier and its targets, and the
    x-skillgate-route header a client would see. A prompt of "-" is read from stdin.
    --scenario picks the scenario (default: the config's default_scenario); --tier simulates
    the x-skillgate-tier header. Weights come from the config's "routing" section.
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, options: ["--config", "--scenario", "--tier"], flags: [])
        if args.wantsHelp { print(help); return 0 }
        guard args.positionals.first == "explain" else { throw UsageError(message: "expected `route explain \"prompt\"`") }
        var prompt = args.positionals.dropFirst().joined(separator: " ")
        if prompt == "-" {
            prompt = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        guard !prompt.isEmpty else { throw UsageError(message: "give the prompt to explain: skillgate route explain \"prove that ...\"") }
        let config = try CLI.loadConfig(args)
        let catalog = try ProviderCatalog.load(directory: config.providersDirectory)
        try config.validate(against: catalog)
        let resolver = ModelResolver(config: config, catalog: catalog)
        print(try resolver.explain(prompt: prompt, scenario: args.value("--scenario"), tierHeader: args.value("--tier")), terminator: "")
        return 0
    }
}
