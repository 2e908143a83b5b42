import Dispatch
import FoundationEssentials
import Glibc
import SkillGateCore
import SkillGateHTTP
import SkillGateRouting
import SkillGateSkills
import SkillGateState
import Synchronization

/// The running gateway: HTTP server, outbound client, services, signal handling.
public final class GatewayServer: Sendable {
    public let services: GatewayServices
    let server: HTTPServer
    let http: HTTPClient
    /// The separate `/metrics` listener (`metrics.listen`), when configured.
    let metricsServer: HTTPServer?
    /// SIGHUP and a 2-second poll reload the key file (the poll also checks the state file); kept behind a Mutex
    /// (Dispatch sources are not Sendable). Made by `start()`: libdispatch traps when a source is released still
    /// suspended, as one made here would be by a gateway that never started.
    private let keySources = Mutex<[any DispatchSourceProtocol]>([])
    /// What the key-reload sources run.
    private let keyReload: KeyReload
    /// Lists the tokens created elsewhere while the gateway runs (decision 0088); started by `start()`.
    let newTokens: NewTokenWatch

    /// Loads everything; throws on any configuration problem (before binding the port).
    /// `clock` times retries and cooldowns (tests inject a manual one).
    /// `serverSkills` replaces the registry built from config (tests).
    /// `now` is the wall clock of limit windows and budgets (tests pass their own).
    public init(config: GatewayConfig, logFD: Int32 = 2, clock: any ResilienceClock = SystemResilienceClock(), serverSkills: SkillRegistry? = nil,
                now: @escaping @Sendable () -> Date = { Date() }) throws {
        http = HTTPClient(configuration: .init(maxConnections: config.limits.upstreamConnectionsPerHost,
                                               usesOwnHTTP1Client: config.ownHTTP1Client))
        services = try GatewayServices(config: config, http: http, logFD: logFD, clock: clock, now: now)
        var serverConfig = HTTPServer.Configuration(host: config.host, port: config.port)
        serverConfig.reusePort = config.reusePort
        serverConfig.backlog = config.limits.listenBacklog
        serverConfig.maxConnections = config.limits.maxConnections > 0 ? config.limits.maxConnections : nil
        serverConfig.maxConnectionsPerIP = config.limits.maxConnectionsPerIP > 0 ? config.limits.maxConnectionsPerIP : nil
        serverConfig.maxBodyBytes = config.limits.maxBodyBytes
        serverConfig.headerTimeout = .seconds(config.limits.headerTimeoutSeconds)
        serverConfig.bodyReadTimeout = .seconds(config.limits.bodyTimeoutSeconds)
        serverConfig.shutdownGrace = .seconds(config.limits.shutdownGraceSeconds)
        if config.warmCode {
            switch HotCode.warmer {
            case .success(let warmer):
                serverConfig.codeWarmer = warmer
                services.log.event("code warming", ["placed": .string(warmer.resolution.description)])
            case .failure(let error):
                services.log.event("code warming off: the shipped table is malformed", ["error": .string(error.description)], level: "warn")
            }
        }
        // While a loop spins for a local upstream's answer it releases the log lines and usage records the writers
        // handed back to it, in its own malloc arena (decision 0109).
        serverConfig.choreWhileSpinning = { [log = services.log, ledger = services.ledger] in
            log.releaseSomeWritten()
            ledger?.releaseSomeWritten()
        }
        serverConfig.errorBody = { status, message in
            // 505 (HTTP/2 or HTTP/3 sent to this port) and 501 (a method or transfer coding the server does not take) are
            // the caller's to fix, like the 4xx (decision 0137).
            let serverFault = status >= 500 && status != 505 && status != 501
            let kind: GatewayError.Kind = status == 413 || status == 431 ? .requestTooLarge
                : (status == 408 ? .timeout : (serverFault ? .internalError : .invalidRequest))
            let error = GatewayError(domain: serverFault ? .gateway : .caller, kind: kind, status: status, message: message)
            return ("application/json", error.surfaceNeutralBody().serializedBytes())
        }
        serverConfig.errorHeaders = { _ in ["x-request-id": RequestIdGenerator.next()] }
        let gate = HeadGate(authentication: AuthenticateStage(tokens: services.tokens), log: services.log)
        serverConfig.headGate = { gate.decide($0) }
        serverConfig.willShutdown = { [services] in
            services.draining.store(true, ordering: .relaxed)
            services.traffic.close()
        }
        let handler = GatewayHandler(services: services, serverSkills: serverSkills)
        // The handler answers preflights; the server adds the origin's fields to every answer (decision 0095).
        if let policy = handler.crossOrigin { serverConfig.replyFields = { policy.replyFields($0) } }
        let httpServer = try HTTPServer(configuration: serverConfig, handler: handler)
        server = httpServer
        if config.metrics.enabled, let listen = config.metrics.listen {
            var metricsConfig = HTTPServer.Configuration(host: listen.host, port: listen.port)
            metricsConfig.shutdownGrace = .seconds(1)
            // No token here: the limits of the main listener's endpoints without one (decision 0137).
            metricsConfig.maxBodyBytes = HeadGate.unauthenticatedBodyBytes
            metricsConfig.maxConnections = serverConfig.maxConnections
            metricsConfig.maxConnectionsPerIP = serverConfig.maxConnectionsPerIP
            metricsConfig.headerTimeout = serverConfig.headerTimeout
            metricsConfig.bodyReadTimeout = serverConfig.bodyReadTimeout
            metricsConfig.backlog = serverConfig.backlog
            // Shared with the gateways sharing `listen`, so the next one can start before this one stops (decision 0145).
            metricsConfig.reusePort = serverConfig.reusePort
            metricsServer = try HTTPServer(configuration: metricsConfig, handler: MetricsHandler(services: services))
        } else {
            metricsServer = nil
        }
        let services = self.services
        services.serverStatistics.locked { $0 = { [weak httpServer] in httpServer?.statistics } }
        keyReload = KeyReload(keys: services.keys, log: services.log, file: config.keyFile)
        newTokens = NewTokenWatch(tokens: services.tokens) { message, level in services.log.event(message, level: level) }
        signal(SIGHUP, SIG_IGN)
    }

    /// SIGHUP running `reload`, and a 2-second poll running `reload` and `everyTwoSeconds`.
    private static func keyReloadSources(_ reload: KeyReload,
                                         poll everyTwoSeconds: @escaping @Sendable () -> Void) -> [any DispatchSourceProtocol] {
        let onSignal = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        onSignal.setEventHandler { reload.run(signalled: true) }
        let poll = DispatchSource.makeTimerSource(queue: .global())
        poll.schedule(deadline: .now() + 2, repeating: 2)
        poll.setEventHandler {
            reload.run(signalled: false)
            everyTwoSeconds()
        }
        return [onSignal, poll]
    }

    /// A once-a-second sweep stopping the answers whose token was revoked meanwhile (decision 0141), on a queue of its
    /// own: Dispatch gives such a queue a thread even while the shared pool's are busy or blocked, so a loaded machine
    /// does not hold a revoked token's answers up.
    private static func revocationSweeps(_ revocations: RevocationWatch) -> any DispatchSourceProtocol {
        let sweeps = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "skillgate.revocation-sweeps"))
        sweeps.schedule(deadline: .now() + 1, repeating: .seconds(1), leeway: .milliseconds(100))
        sweeps.setEventHandler { revocations.sweep() }
        return sweeps
    }

    /// Reloads the key file now, as SIGHUP (`signalled`) or the 2-second poll does (tests).
    func reloadKeys(signalled: Bool) {
        keyReload.run(signalled: signalled)
    }

    /// Connects the MCP servers of `mcp_servers` (starting stdio servers) and waits for each one's
    /// first attempt, so their tools are there from the first request; servers that fail are retried
    /// in the background. Call before `start()`.
    public func connectMCPServers() async {
        await services.mcp?.start()
    }

    /// Stops the MCP servers (stdio servers' processes are terminated and reaped); for a gateway that
    /// connected them but could not start serving.
    public func stopMCPServers() async {
        await services.mcp?.stop()
    }

    /// Binds and starts serving. Throws `ListenAddressInUse` when another process holds `listen` or `metrics.listen`
    /// (and the two do not both set `reuse_port`).
    public func start() throws {
        var setting = "listen"
        do {
            try server.start()
            setting = "metrics.listen"
            try metricsServer?.start()
        } catch {
            http.shutdown()
            if let error = error as? HTTPServerError, error.kind == .addressInUse {
                let address = setting == "listen" ? (services.config.host, services.config.port) : services.config.metrics.listen ?? ("", 0)
                throw ListenAddressInUse(setting: setting, address: "\(address.0):\(address.1)")
            }
            throw error
        }
        keySources.locked { sources in
            // The poll also looks at the state file (decision 0099).
            sources = Self.keyReloadSources(keyReload, poll: { [stateFile = services.stateFile] in stateFile.check() })
            sources.append(Self.revocationSweeps(services.revocations))
            sources.forEach { $0.resume() }
        }
        newTokens.start()
        let c = services.config
        services.log.event("listening", ["address": .string("\(c.host):\(server.boundPort)"), "config": .string(c.sourceFile),
                                         "providers": .int(services.catalog.providers.count)])
        if let metricsServer, let listen = c.metrics.listen {
            services.log.event("metrics listening", ["address": .string("\(listen.host):\(metricsServer.boundPort)")])
        }
    }

    /// The port of the separate metrics listener, when there is one (useful with port 0).
    public var metricsPort: Int? { metricsServer?.boundPort }

    /// Writes the queued usage records now and waits for them (tests; shutdown does it by itself).
    ///
    /// The wait runs off the shared task pool: the ledger's writer runs at a lowered priority, and on a busy machine a
    /// pool thread held while it catches up would keep every other task waiting (decision 0159).
    public func flushLedger() async {
        guard let ledger = services.ledger else { return }
        await writerWaits.run { ledger.flush() }
    }

    /// The port actually bound (useful with port 0).
    public var boundPort: Int { server.boundPort }

    /// Serves until `watch` (armed before `start()`: decision 0044) catches a signal, then drains in-flight requests
    /// and stops every service. Returns the exit status: 0 after a clean drain, 1 when requests were still running at
    /// the end of the grace period.
    public func runUntil(_ watch: SignalWatch) async -> Int32 {
        let stop = await server.runUntil(watch, grace: .seconds(services.config.limits.shutdownGraceSeconds))
        keySources.locked { $0.forEach { $0.cancel() } }
        newTokens.stop()
        await metricsServer?.shutdown(deadline: .seconds(1))
        await services.mcp?.stop()
        await closeWriters()
        services.log.event(stop.drainedCleanly ? "stopped" : "stopped; requests still running at the end of the grace period were cut off",
                           ["signal": .int(Int(stop.signal)), "exit_status": .int(Int(stop.exitStatus))])
        await closeLog()
        http.shutdown()
        return stop.exitStatus
    }

    /// Writes what the usage ledger and the Responses archive hold and stops them, on a thread of their own: a store
    /// that fails holds a close for seconds (the last flush, the writer's last try, the spool), which must not hold a
    /// thread of the shared task pool (gateways stopping in parallel tests starved the others' tasks).
    private func closeWriters() async {
        let services = self.services
        await writerWaits.run {
            services.ledger?.close()
            services.responses.close()
        }
    }

    /// Writes the log's last lines and stops its writer, waiting off the shared task pool: the log's writer runs at a
    /// lowered priority, and a busy machine may not run it for seconds (decision 0159).
    private func closeLog() async {
        let log = services.log
        await writerWaits.run { log.close() }
    }

    /// Where `closeWriters`, `closeLog`, `flushLedger` and `flushLog` wait: one queue per gateway, so the waits of
    /// gateways stopping or flushing together (tests in parallel) do not queue behind one another's (a failing store
    /// holds a close for seconds).
    private let writerWaits = BlockingWorkQueue(label: "skillgate.writer-waits")

    /// What the HTTP server refused or cut off so far (connection caps, header-time refusals, deadlines).
    public var serverStatistics: HTTPServer.Statistics { server.statistics }

    /// Whether the drain has begun (`shutdown`, SIGTERM): no new connections are taken, `/readyz` answers 503.
    public var isShuttingDown: Bool { server.isShuttingDown }

    /// Stops serving (tests).
    public func shutdown() async {
        await server.shutdown(deadline: .seconds(services.config.limits.shutdownGraceSeconds))
        keySources.locked { $0.forEach { $0.cancel() } }
        newTokens.stop()
        await metricsServer?.shutdown(deadline: .seconds(1))
        await services.mcp?.stop()
        await closeWriters()
        await closeLog()
        http.shutdown()
    }

    /// Waits until every log line so far is written (the log is written off the event loops).
    ///
    /// The wait runs off the shared task pool, as `flushLedger`'s does: the log's writer runs at a lowered priority
    /// (decision 0159).
    public func flushLog() async {
        let log = services.log
        await writerWaits.run { log.flush() }
    }

    /// The token service over the config's state store (for the CLI).
    public static func openTokenService(config: GatewayConfig) throws -> TokenService {
        TokenService(store: try openStateStore(config: config))
    }

    /// The store of tokens and usage the config names: PostgreSQL (`state.postgres_url`) or the SQLite file.
    public static func openStateStore(config: GatewayConfig) throws -> any StateStore {
        if let url = config.postgresURL { return try PostgresStateStore(url: url, answerTimeout: config.postgresAnswerTimeout) }
        return try SQLiteStateStore(stateDirectory: config.stateDirectory)
    }
}

/// A listening address of the gateway (`listen`, or `metrics.listen`) that another process holds.
public struct ListenAddressInUse: Error, Sendable {
    /// The config setting of the address: `listen` or `metrics.listen`.
    public let setting: String
    /// `host:port`.
    public let address: String
}
