import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateProviders
import SkillGateState

extension GatewayConfig {
    static let topKeys: Set<String> = ["listen", "state_dir", "key_file", "providers_dir", "providers", "aliases", "tiers",
                                       "reuse_port", "upstream_http1", "warm_code", "default_model", "scenarios", "default_scenario", "skill_packs", "limits", "upstream_timeouts", "routing", "skills", "resilience", "server_skills", "agent",
                                       "responses",
                                       "skill_ranking", "mcp_servers", "$comment"]

    /// Loads and validates a config file. Unknown keys and wrong types are errors naming the file,
    /// the JSON path and what was expected.
    public static func load(path: String) throws -> GatewayConfig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw JSONShapeError(file: path, path: "$", message: "cannot read the config file; check the path given with --config")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(Array(data)) } catch {
            throw JSONShapeError(file: path, path: "$", message: "\(error); fix the JSON syntax")
        }
        let baseDirectory = FilePath.directory(of: path)
        return try GatewayConfig(json: json, file: path, baseDirectory: baseDirectory.isEmpty ? "." : baseDirectory)
    }

    /// Decodes a config document; relative paths resolve against `baseDirectory`.
    public init(json: JSONValue, file: String, baseDirectory: String) throws(JSONShapeError) {
        let r = try JSONReader(root: json, file: file)
        try r.rejectUnknownKeys(Self.topKeys.union(Self.teamKeys).union(Self.promptCachingKeys).union(Self.consoleKeys).union(Self.crossOriginKeys).union(Self.responseCacheKeys))
        func resolve(_ p: String) -> String { p.hasPrefix("/") ? p : FilePath.join(baseDirectory, p) }

        let listen = try r.optionalString("listen") ?? "127.0.0.1:8080"
        guard let (host, port) = Self.parseListen(listen) else {
            throw r.error("listen", "expected HOST:PORT (e.g. \"127.0.0.1:8080\" or \"[::1]:8080\"), got \"\(listen)\"")
        }
        self.host = host
        self.port = port
        reusePort = try r.optionalBool("reuse_port") ?? false
        switch try r.optionalString("upstream_http1") ?? "own" {
        case "own": ownHTTP1Client = true
        case "libcurl": ownHTTP1Client = false
        default:
            throw r.error("upstream_http1", "must be \"own\" (SkillGate's HTTP/1.1 client for plain http:// upstreams, the default) or \"libcurl\"")
        }
        warmCode = try r.optionalBool("warm_code") ?? true
        let stateDir = try r.optionalString("state_dir") ?? "../state"
        stateDirectory = resolve(stateDir)
        let keyFilePath = try r.optionalString("key_file")
        keyFile = resolve(keyFilePath ?? stateDir + "/keys/keys.json")
        providersDirectory = resolve(try r.optionalString("providers_dir") ?? "../Providers")
        sourceFile = file

        providerOverrides = [:]
        for (id, p) in try r.optionalObjectMap("providers") ?? [] {
            try p.rejectUnknownKeys(["enabled", "base_url", "key_name", "ca_file", "count_tokens"])
            let base = try p.optionalString("base_url")
            if let base, !(base.hasPrefix("http://") || base.hasPrefix("https://")) {
                throw p.error("base_url", "expected an http:// or https:// URL, got \"\(base)\"")
            }
            providerOverrides[id] = ProviderOverride(enabled: try p.optionalBool("enabled") ?? true, baseURL: base,
                                                     keyName: try p.optionalString("key_name"))
            providerOverrides[id]?.countTokens = try p.optionalBool("count_tokens")
            if let file = try p.optionalString("ca_file") {
                let path = resolve(file)
                if let problem = CertificateAuthorityFile.problem(at: path) { throw p.error("ca_file", problem) }
                providerOverrides[id]?.caFile = path
            }
        }
        aliases = Dictionary(uniqueKeysWithValues: try r.optionalStringMap("aliases") ?? [])
        tiers = [:]
        if let t = try r.optionalObject("tiers") {
            try t.rejectUnknownKeys(Set(ModelTier.allCases.map(\.rawValue)))
            for tier in ModelTier.allCases { tiers[tier] = try t.optionalStringArray(tier.rawValue) ?? [] }
        }
        defaultModel = try r.optionalString("default_model") ?? "auto"
        scenarios = [:]
        for (name, s) in try r.optionalObjectMap("scenarios") ?? [] {
            try s.rejectUnknownKeys(Set(["description", "skill_packs", "default_model", "allowed_models", "max_visible_skills", "limits", "prompt_caching", "response_cache"]).union(ScenarioSkillOptions.keys))
            scenarios[name] = ScenarioConfig(description: try s.optionalString("description"),
                                             skillPacks: try s.optionalStringArray("skill_packs") ?? [],
                                             defaultModel: try s.optionalString("default_model"),
                                             allowedModels: try s.optionalStringArray("allowed_models") ?? [],
                                             maxVisibleSkills: try s.optionalInt("max_visible_skills"),
                                             skills: try ScenarioSkillOptions(reader: s))
            scenarios[name]?.limits = try Self.parseLimits(s, "limits") ?? TokenLimits()
            scenarios[name]?.promptCaching = try Self.parsePromptCaching(s)
            scenarios[name]?.responseCache = try Self.parseScenarioResponseCache(s)
        }
        defaultScenario = try r.optionalString("default_scenario") ?? "chat"
        if scenarios.isEmpty { scenarios["chat"] = ScenarioConfig(description: "General chat") }
        guard scenarios[defaultScenario] != nil else {
            throw r.error("default_scenario", "names scenario \"\(defaultScenario)\", which is not defined under \"scenarios\"")
        }
        skillPacks = try Self.loadSkillPacks(r)
        skillMetadata = try Self.loadSkillMetadata(r)
        limits = Limits()
        if let l = try r.optionalObject("limits") {
            try l.rejectUnknownKeys(["max_body_bytes", "shutdown_grace_seconds", "header_timeout_seconds", "body_timeout_seconds",
                                     "max_connections", "max_connections_per_ip", "upstream_connections_per_host", "listen_backlog",
                                     "max_answer_mib"])
            if let v = try l.optionalInt("max_answer_mib") {
                guard (1...1024).contains(v) else { throw l.error("max_answer_mib", "must be a whole number of MiB from 1 to 1024 (the default, 32, is far more than any model writes)") }
                limits.maxAnswerBytes = v << 20
            }
            if let v = try l.optionalInt("max_body_bytes") {
                guard v > 0 else { throw l.error("max_body_bytes", "must be a positive number of bytes") }
                limits.maxBodyBytes = v
            }
            limits.shutdownGraceSeconds = try l.optionalDouble("shutdown_grace_seconds") ?? limits.shutdownGraceSeconds
            limits.headerTimeoutSeconds = try l.optionalDouble("header_timeout_seconds") ?? limits.headerTimeoutSeconds
            limits.bodyTimeoutSeconds = try l.optionalDouble("body_timeout_seconds") ?? limits.bodyTimeoutSeconds
            for (key, seconds) in [("header_timeout_seconds", limits.headerTimeoutSeconds), ("body_timeout_seconds", limits.bodyTimeoutSeconds)] where !(seconds > 0) {
                throw l.error(key, "must be a positive number of seconds (the longest a request head or body may take in total)")
            }
            if let v = try l.optionalInt("max_connections") {
                guard v >= 0 else { throw l.error("max_connections", "must be 0 (no cap) or a positive number of connections") }
                limits.maxConnections = v
            }
            if let v = try l.optionalInt("max_connections_per_ip") {
                guard v >= 0 else { throw l.error("max_connections_per_ip", "must be 0 (no cap) or a positive number of connections") }
                limits.maxConnectionsPerIP = v
            }
            if let v = try l.optionalInt("listen_backlog") {
                guard v > 0 else { throw l.error("listen_backlog", "must be a positive number of connections (the kernel caps it at net.core.somaxconn)") }
                limits.listenBacklog = v
            }
            if let v = try l.optionalInt("upstream_connections_per_host") {
                guard v > 0 else { throw l.error("upstream_connections_per_host", "must be a positive number of connections") }
                limits.upstreamConnectionsPerHost = v
            }
        }
        upstreamTimeouts = UpstreamTimeouts()
        if let t = try r.optionalObject("upstream_timeouts") {
            try t.rejectUnknownKeys(["connect_seconds", "first_byte_seconds", "idle_seconds", "total_seconds"])
            upstreamTimeouts.connectSeconds = try t.optionalDouble("connect_seconds") ?? upstreamTimeouts.connectSeconds
            upstreamTimeouts.firstByteSeconds = try t.optionalDouble("first_byte_seconds") ?? upstreamTimeouts.firstByteSeconds
            upstreamTimeouts.idleSeconds = try t.optionalDouble("idle_seconds") ?? upstreamTimeouts.idleSeconds
            upstreamTimeouts.totalSeconds = try t.optionalDouble("total_seconds") ?? upstreamTimeouts.totalSeconds
        }
        routing = try Self.routing(from: r, baseDirectory: baseDirectory)
        resilience = try Self.parseResilience(try r.optionalObject("resilience"))
        serverSkills = try ServerSkillsConfig(reader: try r.optionalObject("server_skills"))
        mcpServers = try Self.loadMCPServers(r)
        agent = try Self.parseAgent(try r.optionalObject("agent"))
        responses = try Self.parseResponses(try r.optionalObject("responses"))
        skillRanking = try Self.parseSkillRanking(try r.optionalObject("skill_ranking"))
        try loadTeam(r)
        promptCaching = try Self.parsePromptCaching(r) ?? .off
        responseCache = try Self.parseResponseCache(r)
        console = try Self.parseConsole(r, resolve: resolve)
        crossOrigin = try Self.parseCrossOrigin(r)
        try validateSkills(r)
        try validateMCPPackEntries(r)
    }

    /// Splits `HOST:PORT` (`[v6]:PORT` for IPv6).
    public static func parseListen(_ s: String) -> (String, Int)? {
        guard let colon = s.lastIndex(of: ":"), let port = Int(s[s.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        var host = String(s[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }
}
