import FoundationEssentials
import Glibc
import Dispatch
import SkillGateServer
import SkillGateState

/// Dispatches `skillgate <command> ...` and maps failures to exit codes.
enum CLI {
    static let usage = """
    skillgate — an LLM gateway with skill routing

    Usage: skillgate <command> [options]

    Commands:
      serve              run the gateway
      keys               manage provider keys (set, list, remove)
      tokens             manage client tokens (create, update limits, list, revoke)
      notes              the notes skills' notes per token (list, delete one or all)
      usage              what was spent, by token, model, scenario or day (the usage ledger)
      config check       validate a config file and the provider catalog
      providers          list the provider catalog and whether each key is set
      route explain      show how "model": "auto" routes a prompt, and why
      route train        fit the learned router to your own labelled prompts
      eval               score routing or skill selection on the labelled corpus
      chat               a terminal chat over /v1/agent (streamed answers, skill lines)

    Every command takes --config PATH (default: Config/skillgate.json) and --help.
    Exit codes: 0 ok, 1 runtime failure, 2 usage error.
    """

    static func run(_ args: [String]) async -> Int32 {
        guard let command = args.first else {
            printErr(usage)
            return 2
        }
        let rest = Array(args.dropFirst())
        do {
            switch command {
            case "serve": return try await ServeCommand.run(rest)
            case "keys": return try KeysCommand.run(rest)
            case "tokens": return try TokensCommand.run(rest)
            case "notes": return try NotesCommand.run(rest)
            case "usage": return try UsageCommand.run(rest)
            case "config": return try ConfigCommand.run(rest)
            case "providers": return try ProvidersCommand.run(rest)
            case "route": return try RouteCommand.run(rest)
            case "chat": return try await ChatCommand.run(rest)
            case "eval": return try await EvalCommand.run(rest)
            case "help", "--help", "-h":
                print(usage)
                return 0
            default:
                // Not `skillgate <command> --help`, which fails the same way.
                printErr("error: unknown command \"\(command)\"\nRun `skillgate --help` for the commands.")
                return 2
            }
        } catch let error as UsageError {
            printErr("error: \(error.message)\nRun `skillgate \(command == "help" ? "" : command + " ")--help` for usage.")
            return 2
        } catch let error as TokenError where error.isUsageError {
            // What was given on the command line is wrong (a name, a scope, a limit): a usage error, exit 2 as documented.
            printErr("error: \(error)")
            return 2
        } catch {
            printErr("error: \(error)")
            return 1
        }
    }

    /// The config path from `--config`, or the default.
    static func configPath(_ args: Arguments) -> String {
        args.value("--config") ?? "Config/skillgate.json"
    }

    /// Loads the config named by `--config`.
    static func loadConfig(_ args: Arguments) throws -> GatewayConfig {
        try GatewayConfig.load(path: configPath(args))
    }
}

/// Writes a line to stderr.
func printErr(_ text: String) {
    var bytes = Array((text + "\n").utf8)[...]
    while !bytes.isEmpty {
        let n = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        bytes = bytes.dropFirst(n)
    }
}

extension CLI {
    /// Everything on standard input until end of file.
    static func readStandardInput() -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return out }
            out += buffer[0..<n]
        }
    }
}
