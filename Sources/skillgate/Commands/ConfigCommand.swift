import FoundationEssentials
import Glibc
import Dispatch
import SkillGateKeys
import SkillGateProviders
import SkillGateServer

/// `skillgate config check`: validate the config and the catalog without starting anything.
enum ConfigCommand {
    static let help = """
    Usage: skillgate config check [--config PATH]

    Loads the config and the provider catalog and checks every model reference (tiers, aliases,
    scenario defaults, the skill_ranking embedding model) and that the key file is readable with safe
    permissions (what /readyz only reports as "key store unreadable"). Prints the problem with file and
    JSON path, or a summary. Exit 1 on a problem.
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, options: ["--config"], flags: [])
        if args.wantsHelp { print(help); return 0 }
        guard args.positionals == ["check"] else { throw UsageError(message: "expected `config check`") }
        let config = try CLI.loadConfig(args)
        let catalog = try ProviderCatalog.load(directory: config.providersDirectory)
        try config.validate(against: catalog)
        let keyCount: Int
        do {
            keyCount = try KeyStore(path: config.keyFile).names.count
        } catch {
            printErr("error: the key store is not readable: \(error)")
            return 1
        }
        print("ok: \(CLI.configPath(args))")
        for warning in config.warnings { print("  warning    \(warning)") }
        print("  listen     \(config.host):\(config.port)\(config.reusePort ? " (reuse_port: shared with other processes)" : "")")
        print("  keys       \(keyCount) in \(config.keyFile)")
        let limits = config.limits
        print("  limits     body \(limits.maxBodyBytes) B; head \(limits.headerTimeoutSeconds) s, body \(limits.bodyTimeoutSeconds) s in total; "
              + "connections \(limits.maxConnections == 0 ? "no cap" : String(limits.maxConnections)), "
              + "per IP \(limits.maxConnectionsPerIP == 0 ? "no cap" : String(limits.maxConnectionsPerIP))")
        print("  providers  \(catalog.providers.count) in \(config.providersDirectory)")
        for tier in ModelTier.allCases {
            print("  \(tier.rawValue + String(repeating: " ", count: max(0, 10 - tier.rawValue.count))) \((config.tiers[tier] ?? []).joined(separator: ", "))")
        }
        print("  scenarios  \(config.scenarios.keys.sorted().joined(separator: ", ")) (default \(config.defaultScenario))")
        let withoutModel = config.skillRanking.wordVectors ? "BM25 + built-in word vectors" : "BM25"
        if let e = config.skillRanking.embeddings {
            print("  ranking    hybrid: BM25 + \(e.model) (timeout \(e.timeoutMs) ms; without it: \(withoutModel))")
        } else {
            print("  ranking    lexical (\(withoutModel))")
        }
        if let x = config.skillRanking.examples {
            print("  examples   \(x.model) writes example requests once per skill, at most \(x.maxPerHour) skills an hour (weight \(x.weight); until written: the descriptions alone)")
        }
        if let s = config.skillRanking.selector {
            print("  selector   \(s.model) chooses among the top \(s.candidates) (timeout \(s.timeoutMs) ms; without it: the ranking's cut)")
        }
        return 0
    }
}
