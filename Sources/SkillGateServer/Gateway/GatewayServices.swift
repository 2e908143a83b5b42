import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
import SkillGateProviders
import SkillGateRouting
import SkillGateSkills
import SkillGateState
import Synchronization

/// Everything the gateway loads once at start: config, catalog, keys, tokens, clients, log.
public final class GatewayServices: Sendable {
    public let config: GatewayConfig
    /// The wall clock of limit windows, budgets and the usage rows' times (tests pass their own).
    let now: @Sendable () -> Date
    public let catalog: ProviderCatalog
    public let keys: KeyStore
    public let tokens: TokenService
    /// The answers under way, stopped when their token is revoked (decision 0141).
    let revocations: RevocationWatch
    let resolver: ModelResolver
    let clients: ClientFactory
    let log: RequestLog
    /// Per-scenario skill rules (Skills/SkillPolicy.swift).
    let skills: SkillPolicy
    /// Ranks the skills of a relevance cut (lexical or hybrid), with counters of how cuts were ranked.
    public var skillRanker: SkillRanker { skills.ranker }
    /// Retries, fallbacks, cooldowns, load balancing and stickiness over the plan.
    let executor: RouteExecutor
    /// Server-side skills the gateway runs itself (the agent loop, Agent/): configured ones and MCP servers' tools.
    let serverSkills: SkillRegistry
    /// The MCP servers' tools (`mcp_servers`), when any are configured; started by `GatewayServer.connectMCPServers()`.
    public let mcp: MCPSkillSource?
    /// Prometheus metrics (`/metrics`).
    let metrics: GatewayMetrics
    /// Limits and budgets per token and scenario.
    let limitCounters: LimitCounters
    /// The usage ledger's writer; nil when `ledger.enabled` is false.
    let ledger: UsageLedger?
    /// Answers kept for the Responses API's `previous_response_id` (`responses.retention_hours`).
    let responses: ResponseArchive
    /// Finished requests for the console's Traffic view and `/admin/api/requests` (bounded; decision 0030).
    let traffic = TrafficBroadcaster()
    /// Checked `tools` arrays by their bytes, per token (the OpenAI surface; decision 0057).
    let toolLists = ToolListCache()
    /// Complete answers kept for exact repeats, per token (`response_cache`, decision 0140); nil when no scenario caches.
    let responseCache: ResponseCache?
    /// Where the admin API's answers are worked out (token changes, usage reports, limits): they read and write the
    /// state store, so never on an event loop (decision 0086).
    let adminWork = BlockingWorkQueue(label: "skillgate.admin")
    /// Where `/readyz` looks at the key file: off the event loops, and apart from the admin API's work (decision 0152).
    let readinessChecks = BlockingWorkQueue(label: "skillgate.readiness")
    /// The console's files; nil when `console.enabled` is false or its directory is missing (logged at start).
    let consoleAssets: ConsoleAssets?
    /// Tells when `state.sqlite` is deleted or replaced under the running gateway (decision 0099); checked every 2 s by
    /// `GatewayServer`, read by `/readyz`.
    let stateFile: StateFileWatch
    /// Set when the server begins to drain (SIGTERM): `/readyz` answers 503 from then on, so a load balancer stops
    /// sending, while requests on connections already open are still served (decision 0145).
    let draining = Atomic<Bool>(false)
    /// Reads the main HTTP server's admission counters for `/metrics`; set by `GatewayServer` once its server exists.
    let serverStatistics = Mutex<(@Sendable () -> HTTPServer.Statistics?)?>(nil)

    /// Loads the catalog, validates the config against it, opens the key store and the state
    /// store. Every problem is reported here, at start, never at the first request.
    /// `clock` times retries and cooldowns (tests inject their own).
    /// `now` is the wall clock of limit windows and budgets (tests pass their own).
    public init(config: GatewayConfig, http: HTTPClient, logFD: Int32 = 2, clock: any ResilienceClock = SystemResilienceClock(),
                now: @escaping @Sendable () -> Date = { Date() }) throws {
        let catalog = try ProviderCatalog.load(directory: config.providersDirectory)
        try config.validate(against: catalog)
        self.config = config
        self.catalog = catalog
        self.now = now
        keys = try KeyStore(path: config.keyFile)
        // A short cache lifetime makes `skillgate tokens revoke` (another process) effective within 2 s,
        // at the cost of one SQLite lookup (~25 µs) per token every 2 s.
        let stateStore = try SQLiteStateStore(stateDirectory: config.stateDirectory)
        let log = RequestLog(fd: logFD)
        self.log = log
        for warning in config.warnings { log.event(warning, level: "warn") }
        stateFile = StateFileWatch(store: stateStore) { message, level in log.event(message, level: level) }
        // Tokens, the ledger and budgets: PostgreSQL when configured (several instances), else the SQLite file. The
        // server's warnings are log events, not lines of libpq's own on the log's stream.
        let postgres = try config.postgresURL.map { url in
            try PostgresStateStore(url: url, answerTimeout: config.postgresAnswerTimeout, notices: { log.event("PostgreSQL warned: \($0)", level: "warn") })
        }
        let shared: any StateStore = postgres ?? stateStore
        tokens = TokenService(store: shared, cacheLifetime: .seconds(2))
        revocations = RevocationWatch(tokens: tokens)
        // Notes too (decision 0122); those left in the file from before PostgreSQL are named in the log, not copied.
        if postgres != nil, let leftover = NotesLeftInStateFile.warning(stateStore) { log.event(leftover, level: "warn") }
        let configured = try ServerSkillsFactory.makeRegistry(config: config.serverSkills, keys: keys, stateStore: stateStore, postgres: postgres, http: http,
                                                              storeFailed: { log.event($0, level: "error") })
        resolver = ModelResolver(config: config, catalog: catalog)
        let clients = ClientFactory(config: config, keys: keys, http: http, clock: clock)
        self.clients = clients
        // The tokens active now are known from the start: after a restart, their first lookups do not queue behind
        // made-up tokens (decision 0079). A hint only; without it they are learnt as they are accepted.
        do {
            try tokens.learnActiveTokens()
        } catch {
            log.event("could not list the active tokens at start (\(error)); each is known once it is first accepted", level: "warn")
        }
        let mcp = MCPSkillsFactory.makeSource(configs: config.mcpServers, keys: keys, http: http, reserved: Set(configured.all.map(\.name))) { message, fields, level in
            log.event(message, fields, level: level)
        }
        self.mcp = mcp
        serverSkills = try SkillRegistry(configured.all, live: mcp)
        metrics = GatewayMetrics(enabled: config.metrics.enabled)
        responseCache = config.usesResponseCache ? ResponseCache(maxBytes: config.responseCache.maxBytes, now: now) : nil
        responses = ResponseArchive(store: postgres ?? stateStore, retention: config.responses.retentionHours,
                                    maxBytesPerToken: config.responses.maxBytesPerToken, now: now) { problem in
            log.event(problem, level: "warn")
        }
        ledger = config.ledger.enabled
            ? UsageLedger(store: shared, flushInterval: .milliseconds(config.ledger.flushInterval(sharedDatabase: config.postgresURL != nil)),
                          batchSize: config.postgresURL == nil ? UsageLedger.embeddedBatch : UsageLedger.sharedDatabaseBatch,
                          maxQueued: config.ledger.maxQueued, spool: LedgerSpool(directory: FilePath.join(config.stateDirectory, "ledger-spool"))) { problem, count in
                log.event(problem, ["records": .int(count)], level: "warn")
            }
            : nil
        // Re-read every second on SQLite too: other gateways may share the state directory (`reuse_port`, or another
        // port), and without it each would allow the whole budget (decision 0105).
        limitCounters = LimitCounters(now: now, rereadEvery: .seconds(1)) { subject, since in
            switch subject.kind {
            case .token: try? shared.usageSummary(tokenId: subject.id, since: since)
            case .scenario: try? shared.usageSummary(scenario: subject.id, since: since)
            }
        }
        if config.console.enabled {
            consoleAssets = ConsoleAssets.load(directory: config.console.assetsDirectory)
            if consoleAssets == nil {
                log.event("console files not found; /console is off", ["assets_dir": .string(config.console.assetsDirectory)], level: "warn")
            }
        } else {
            consoleAssets = nil
        }
        let metrics = self.metrics
        let ledger = self.ledger
        skills = SkillPolicy(config: config, ranker: try SkillRanker(config: config, catalog: catalog, keys: keys, stateStore: stateStore, http: http,
                                                                       clients: clients, examplesStore: stateStore) { event in
            metrics.countExampleWriting(event)
            SkillExampleWriter.log(event, to: log)
            // The gateway's own spend goes into the ledger beside the clients' (decision 0049).
            if case .recorded(let row) = event { ledger?.record([row]) }
        })
        executor = RouteExecutor(settings: config.resilience, clock: clock, keyVersion: { clients.keyVersion(for: $0) },
                                 maxAnswerBytes: config.limits.maxAnswerBytes) { target, remaining throws(GatewayError) in
            try clients.client(for: target, within: remaining)
        }
    }
}
