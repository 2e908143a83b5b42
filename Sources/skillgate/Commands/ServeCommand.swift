import Dispatch
import FoundationEssentials
import Glibc
import SkillGateHTTP
import SkillGateServer

/// `skillgate serve`: run the gateway until SIGTERM/SIGINT.
enum ServeCommand {
    static let help = """
    Usage: skillgate serve [--config PATH] [--listen HOST:PORT]

    Runs the gateway. Logs one JSON line per request on stderr. SIGHUP reloads the key file;
    SIGTERM/SIGINT stop accepting, let in-flight requests finish (limits.shutdown_grace_seconds), exit 0.
    """

    static func run(_ raw: [String]) async throws -> Int32 {
        let args = try Arguments(raw, options: ["--config", "--listen"], flags: [])
        if args.wantsHelp { print(help); return 0 }
        guard args.positionals.isEmpty else { throw UsageError(message: "unexpected argument \(args.positionals[0])") }
        var config = try CLI.loadConfig(args)
        if let listen = args.value("--listen") {
            guard let (host, port) = GatewayConfig.parseListen(listen) else {
                throw UsageError(message: "--listen expects HOST:PORT (e.g. 127.0.0.1:8080), got \(listen)")
            }
            config.host = host
            config.port = port
        }
        OpenFileLimit.raiseToHardLimit()
        let server = try GatewayServer(config: config)
        try server.start()
        return await server.runUntilSignal()
    }
}
