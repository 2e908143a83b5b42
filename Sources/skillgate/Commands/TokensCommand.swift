import FoundationEssentials
import Glibc
import Dispatch
import SkillGateServer
import SkillGateProviders
import SkillGateState

/// `skillgate tokens`: client tokens (stored as hashes in the state store).
enum TokensCommand {
    static let help = """
    Usage: skillgate tokens create --name NAME [--scenario S]... [--default-scenario S] [--model M]... [--admin [--chat]] [limits]
                                  prints the new token alone on stdout (shown once; only its hash is stored)
           skillgate tokens update NAME [limits]   changes a token's limits (a running gateway applies them within 2 s)
           skillgate tokens list      names, scopes, limits, created and last-used times
           skillgate tokens revoke NAME
    Options: --config PATH

    --scenario limits the token to scenarios; --model to tiers (light, strong), aliases or provider/model.
    Without them the token may use everything.
    --default-scenario is the scenario of the token's requests that send no x-skillgate-scenario (one of its
    --scenario ones, if it has any). Without it: the token's only scenario, if it has one, else the config's
    default_scenario. Set at creation only.
    --admin makes an admin token: it may use the admin API (/admin/api/...) and the web console (/console),
    and the chat and agent endpoints only when --chat is given too (the console's Playground needs it).

    """ + TokenLimitFlags.help

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, options: Set(["--config", "--name", "--scenario", "--default-scenario", "--model"] + TokenLimitFlags.names),
                                 repeatable: ["--scenario", "--model"], flags: ["--admin", "--chat"])
        if args.wantsHelp || args.positionals.isEmpty { print(help); return args.wantsHelp ? 0 : 2 }
        let config = try CLI.loadConfig(args)
        let tokens = try GatewayServer.openTokenService(config: config)
        switch (args.positionals[0], args.positionals.count) {
        case ("create", 1):
            guard let name = args.value("--name") else { throw UsageError(message: "tokens create needs --name NAME") }
            let defaultScenario = args.value("--default-scenario")
            for s in args.values("--scenario") + (defaultScenario.map { [$0] } ?? []) where config.scenarios[s] == nil {
                throw UsageError(message: "unknown scenario \"\(s)\"; configured: \(config.scenarios.keys.sorted().joined(separator: ", "))")
            }
            if !args.values("--model").isEmpty {
                let catalog = try ProviderCatalog.load(directory: config.providersDirectory)
                for m in args.values("--model") {
                    if let problem = config.unknownModelScopeEntry(m, catalog: catalog) { throw UsageError(message: problem) }
                }
            }
            let admin = args.flags.contains("--admin")
            guard admin || !args.flags.contains("--chat") else {
                throw UsageError(message: "--chat goes with --admin (ordinary tokens may always chat); drop it or add --admin")
            }
            let created = try tokens.create(name: name, scenarios: args.values("--scenario"), models: args.values("--model"),
                                            defaultScenario: defaultScenario, limits: try TokenLimitFlags.apply(args, to: TokenLimits()), admin: admin, chat: args.flags.contains("--chat"))
            print(created.token)
            printErr("created \(admin ? "admin " : "")token \"\(name)\"; it is shown only this once")
        case ("list", 1):
            let list = try tokens.list()
            if list.isEmpty { printErr("no tokens yet; create one with `skillgate tokens create --name NAME`") }
            print("NAME\tROLE\tSCENARIOS\tMODELS\tLIMITS\tCREATED\tLAST USED\tSTATUS")
            for t in list {
                let scen = (t.scenarios.isEmpty ? "*" : t.scenarios.joined(separator: ",")) + (t.defaultScenario.map { ";default=\($0)" } ?? "")
                let models = t.models.isEmpty ? "*" : t.models.joined(separator: ",")
                let role = t.admin ? (t.chat ? "admin+chat" : "admin") : "chat"
                print("\(t.name)\t\(role)\t\(scen)\t\(models)\t\(TokenLimitFlags.summary(t.limits))\t\(format(t.createdAt))\t\(t.lastUsedAt.map(format) ?? "never")\t\(t.revokedAt == nil ? "active" : "revoked")")
            }
        case ("update", 2):
            let name = args.positionals[1]
            guard TokenLimitFlags.given(args) else {
                throw UsageError(message: "tokens update needs at least one limit flag (\(TokenLimitFlags.names.joined(separator: ", ")))")
            }
            guard let current = try tokens.list().first(where: { $0.name == name && !$0.isRevoked }) else {
                throw TokenError.unknownToken(name)
            }
            let updated = try tokens.updateLimits(name: name, try TokenLimitFlags.apply(args, to: current.limits))
            printErr("updated \(name): limits \(TokenLimitFlags.summary(updated.limits))")
        case ("revoke", 2):
            try tokens.revoke(name: args.positionals[1])
            printErr("revoked \(args.positionals[1])")
        default:
            throw UsageError(message: "expected `tokens create --name NAME`, `tokens update NAME --rpm N ...`, `tokens list` or `tokens revoke NAME`")
        }
        return 0
    }

    private static func format(_ date: Date) -> String {
        Date.ISO8601FormatStyle().format(date)
    }
}
