import FoundationEssentials
import Glibc
import Dispatch
import SkillGateChat
import SkillGateClient
import SkillGateServer

/// `skillgate chat`: a terminal chat over `POST /v1/agent` (streamed text, one line per skill).
enum ChatCommand {
    static let help = """
    Usage: skillgate chat [--url URL] [--token TOKEN] [--scenario S] [--model M] [--config PATH]

    A terminal chat with the gateway's agent loop: answers stream in, each server-side skill shows as
    one line (⚙ name {arguments} … ✓ 3 ms). Ctrl-C stops the current answer; Ctrl-C or Ctrl-D at the
    prompt leaves. Commands: /scenario NAME, /model NAME, /reset, /help, /quit.

    --url      the gateway (default: the config's listen address, http://127.0.0.1:8080 without a config)
    --token    a client token (default: $SKILLGATE_TOKEN; create one with `skillgate tokens create --name me`)
    --scenario the scenario to use (default: the server's)
    --model    auto, a tier, an alias or provider/model (default: auto)
    """

    static func run(_ raw: [String]) async throws -> Int32 {
        let args = try Arguments(raw, options: ["--config", "--url", "--token", "--scenario", "--model"], flags: [], tokenTextIn: ["--token"])
        if args.wantsHelp { print(help); return 0 }
        guard args.positionals.isEmpty else { throw UsageError(message: "unexpected argument \(args.positionals[0])") }
        guard let token = ChatDefaults.token(option: args.value("--token"), environment: ProcessInfo.processInfo.environment) else {
            throw UsageError(message: ChatDefaults.missingTokenMessage)
        }
        let url = try args.value("--url") ?? defaultURL(args)
        guard let baseURL = URL(string: url), baseURL.scheme == "http" || baseURL.scheme == "https", baseURL.host != nil else {
            throw UsageError(message: "--url must be the gateway's root URL, like http://127.0.0.1:8080 (got \(url))")
        }

        let interrupts = ChatInterrupts()
        let output = StandardOutputWriter()
        // On a terminal the chat edits lines itself, so Ctrl-C can tell a half-typed line from an empty prompt.
        let editor: TerminalLineEditor? = isatty(0) != 0 ? TerminalLineEditor(output: output) : nil
        let signals = InterruptSignalHandler(interrupts: interrupts) {
            if editor?.discardTypedLine() == true { return }
            editor?.restoreTerminal()
            output.write("\n")
            exit(0)
        }
        let input: any ChatLineReader = editor ?? StandardInputReader(output: output)
        var loop = ChatLoop(transport: SkillGateClient(baseURL: baseURL, token: token),
                            input: input, output: output, interrupts: interrupts,
                            session: ChatSession(scenario: args.value("--scenario"), model: args.value("--model")))
        output.write("skillgate chat · \(url) · /help for commands, Ctrl-C stops an answer, Ctrl-D leaves\n")
        let status = await loop.run()
        editor?.restoreTerminal()  // the editor keeps the terminal in line mode between lines
        withExtendedLifetime(signals) {}
        return status
    }

    /// The config's listen address when `--config` is given or the default config exists.
    private static func defaultURL(_ args: Arguments) throws -> String {
        let path = CLI.configPath(args)
        guard args.value("--config") != nil || FileManager.default.fileExists(atPath: path) else {
            return "http://127.0.0.1:8080"
        }
        let config = try GatewayConfig.load(path: path)
        return ChatDefaults.baseURL(host: config.host, port: config.port)
    }
}
