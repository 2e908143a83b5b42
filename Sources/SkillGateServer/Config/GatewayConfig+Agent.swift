import SkillGateCore

extension GatewayConfig {
    /// The `agent` section: limits of the agent loop that runs server-side skills.
    ///
    /// ```json
    /// "agent": {"max_iterations": 5, "max_result_bytes": 16384, "max_skill_timeout_seconds": 60, "max_skill_calls_per_turn": 16,
    ///           "max_run_seconds": 600}
    /// ```
    public struct Agent: Sendable, Hashable {
        /// Model calls per run at most. Default 5.
        public var maxIterations = 5
        /// Longest skill result (UTF-8 bytes) the model reads; longer ones are truncated with a note. Default 16 KiB.
        public var maxResultBytes = 16 * 1024
        /// Upper bound on any skill's own timeout. Default 60 s.
        public var maxSkillTimeoutSeconds = 60.0
        /// Skill calls run from one model answer at most; the answer's further calls are answered with an error the
        /// model reads, not run. Without a bound, one answer of 200 `http_get` calls made 200 outbound requests.
        /// Default 16.
        public var maxSkillCallsPerTurn = 16
        /// Wall-clock time of one run at most, checked between its steps: a run past it ends before its next model call or
        /// skill calls (a step already running ends within its own timeout). Without it, a run at the largest settings
        /// (50 model calls, each with its skills' timeouts) could hold a connection for most of an hour. Default 600 s.
        public var maxRunSeconds = 600

        public init() {}
    }

    /// Reads the `agent` object (`nil` = all defaults).
    static func parseAgent(_ r: JSONReader?) throws(JSONShapeError) -> Agent {
        var out = Agent()
        guard let r else { return out }
        try r.rejectUnknownKeys(["max_iterations", "max_result_bytes", "max_skill_timeout_seconds", "max_skill_calls_per_turn", "max_run_seconds",
                                 "$comment"])
        if let v = try r.optionalInt("max_iterations") {
            guard (1...50).contains(v) else { throw r.error("max_iterations", "must be between 1 and 50 (model calls per agent run)") }
            out.maxIterations = v
        }
        if let v = try r.optionalInt("max_result_bytes") {
            guard v >= 256 else { throw r.error("max_result_bytes", "must be at least 256 bytes (the truncation note alone needs ~100)") }
            out.maxResultBytes = v
        }
        if let v = try r.optionalDouble("max_skill_timeout_seconds") {
            guard v > 0 else { throw r.error("max_skill_timeout_seconds", "must be a positive number of seconds") }
            out.maxSkillTimeoutSeconds = v
        }
        if let v = try r.optionalInt("max_skill_calls_per_turn") {
            guard (1...128).contains(v) else { throw r.error("max_skill_calls_per_turn", "must be between 1 and 128 (skill calls run from one model answer)") }
            out.maxSkillCallsPerTurn = v
        }
        if let v = try r.optionalInt("max_run_seconds") {
            guard (1...3600).contains(v) else { throw r.error("max_run_seconds", "must be between 1 and 3600 (seconds one agent run may take)") }
            out.maxRunSeconds = v
        }
        return out
    }
}
