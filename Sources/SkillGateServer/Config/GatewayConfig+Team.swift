import SkillGateCore
import SkillGateState

/// Running for a team (decision 0027): the usage ledger, per-token limit defaults and `/metrics`. New top-level
/// keys, so the older `limits` block (connection and body limits) stays as it is.
extension GatewayConfig {
    /// The top-level keys this file reads.
    static let teamKeys: Set<String> = ["token_limits", "ledger", "metrics", "state"]

    /// The usage ledger (`ledger`): one row per request in the state store, written in batches off the request path.
    public struct Ledger: Sendable, Hashable {
        /// `false` records nothing (budgets then count this process's spend only).
        public var enabled = true
        /// How long records wait before their batch is written: the most a crash can lose. Nil: the store's default
        /// (`flushInterval(sharedDatabase:)`).
        public var flushIntervalMs: Int?
        /// Records held in memory when the store cannot keep up or fails; beyond it they are dropped and counted.
        public var maxQueued = 100_000
        public init() {}

        /// The batch window in milliseconds: the configured one, else 25 ms on the embedded SQLite file (a batch is a
        /// burst of CPU beside the event loops, kept short: decision 0059) and 1 s on PostgreSQL (a batch there has a
        /// fixed cost of ~1 ms: decision 0031).
        public func flushInterval(sharedDatabase: Bool) -> Int {
            flushIntervalMs ?? (sharedDatabase ? 1000 : 25)
        }
    }

    /// Prometheus metrics (`metrics`).
    public struct Metrics: Sendable, Hashable {
        /// `false`: no `/metrics` anywhere.
        public var enabled = true
        /// A separate `HOST:PORT` for `/metrics` (then the main listener does not serve it); nil: the main listener.
        public var listen: (host: String, port: Int)? {
            get { listenHost.map { ($0, listenPort) } }
            set { listenHost = newValue?.host; listenPort = newValue?.port ?? 0 }
        }
        var listenHost: String?
        var listenPort = 0
        public init() {}
    }

    /// Reads `token_limits`, `ledger`, `metrics` and `state`.
    mutating func loadTeam(_ r: JSONReader) throws(JSONShapeError) {
        if let st = try r.optionalObject("state") {
            try st.rejectUnknownKeys(["postgres_url", "query_timeout_seconds"])
            if let seconds = try st.optionalInt("query_timeout_seconds") {
                guard (1...600).contains(seconds) else {
                    throw st.error("query_timeout_seconds", "must be 1 to 600 seconds (how long one statement may wait for PostgreSQL's answer; 10 by default)")
                }
                postgresAnswerTimeout = .seconds(seconds)
            }
            if let url = try st.optionalString("postgres_url") {
                guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") || url.contains("=") else {
                    throw st.error("postgres_url", "expected a URL like postgresql://skillgate@db.internal:5432/skillgate (keep the password in PGPASSWORD or ~/.pgpass)")
                }
                postgresURL = url
            }
        }
        tokenLimits = try Self.parseLimits(r, "token_limits") ?? TokenLimits()
        if let l = try r.optionalObject("ledger") {
            try l.rejectUnknownKeys(["enabled", "flush_interval_ms", "max_queued"])
            ledger.enabled = try l.optionalBool("enabled") ?? true
            if let v = try l.optionalInt("flush_interval_ms") {
                guard (10...60_000).contains(v) else { throw l.error("flush_interval_ms", "must be 10 to 60000 milliseconds (a crash loses at most this window)") }
                ledger.flushIntervalMs = v
            }
            if let v = try l.optionalInt("max_queued") {
                guard v > 0 else { throw l.error("max_queued", "must be a positive number of records") }
                ledger.maxQueued = v
            }
        }
        if let m = try r.optionalObject("metrics") {
            try m.rejectUnknownKeys(["enabled", "listen"])
            metrics.enabled = try m.optionalBool("enabled") ?? true
            if let listen = try m.optionalString("listen") {
                guard let (host, port) = Self.parseListen(listen) else {
                    throw m.error("listen", "expected HOST:PORT (e.g. \"127.0.0.1:9464\"), got \"\(listen)\"")
                }
                metrics.listen = (host, port)
            }
        }
    }

    /// The limits object at `key` of `r` (`token_limits`, `scenarios.<name>.limits`), or nil when absent.
    static func parseLimits(_ r: JSONReader, _ key: String) throws(JSONShapeError) -> TokenLimits? {
        guard let value = r.object[key], !value.isNull else { return nil }
        do {
            return try TokenLimits(json: value, where: "\(r.path).\(key)")
        } catch {
            throw r.error(key, "\(error.description); fix it in \(r.file)")
        }
    }
}
