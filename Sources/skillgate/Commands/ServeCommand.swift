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
    SIGTERM/SIGINT stop accepting and let in-flight requests finish (limits.shutdown_grace_seconds):
    exit 0 when they all did, 1 when some were cut off at the end of the grace period.
    Refuses to start when another process listens on the address (unless both set "reuse_port": true).
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
        await server.connectMCPServers()
        // Armed before the listener opens: a SIGTERM sent as soon as the gateway answers is caught, never ignored.
        let stopSignals = await SignalWatch.arm([SIGTERM, SIGINT])
        do {
            try server.start()
        } catch {
            stopSignals.cancel()
            // The stdio MCP servers started above go with the gateway that could not serve.
            await server.stopMCPServers()
            guard let error = error as? ListenAddressInUse else { throw error }
            if error.setting == "listen" {
                printErr("""
                error: \(error.address) is already in use — another process (perhaps another `skillgate serve`) listens there.
                Stop that process, or start this one on another port: `skillgate serve --listen \(config.host):PORT` (or "listen" in the config).
                To run several gateways on one port on purpose, set "reuse_port": true in every one of their configs.
                """)
            } else {
                printErr("""
                error: the metrics address \(error.address) ("metrics": {"listen": …} in the config) is already in use — another \
                process (perhaps another `skillgate serve` with this config) listens there.
                Give each gateway its own metrics port in its config, or stop that process. To share it on purpose (the next \
                gateway of a restart started before the old one stops), set "reuse_port": true in every one of their configs.
                """)
            }
            return 1
        }
        return await server.runUntil(stopSignals)
    }
}
