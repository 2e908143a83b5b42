import SkillGateCore

extension GatewayConfig {
    /// The `responses` section: how long the Responses API (`POST /v1/responses`) keeps answers for
    /// `previous_response_id` (decision 0028).
    ///
    /// ```json
    /// "responses": {"retention_hours": 24, "max_mib_per_token": 1024}
    /// ```
    public struct Responses: Sendable, Hashable {
        /// Hours a stored response can be continued; 0 keeps none (`previous_response_id` is then
        /// always a 404, and `store` is reported false). Default 24.
        public var retentionHours = 24.0
        /// The most a token's stored conversations may hold together, in MiB; past it, the token's oldest stored
        /// responses are dropped (decision 0119). Default 1024; from 8 (the longest conversation kept for one response)
        /// to 1,048,576 (a TiB).
        public var maxMiBPerToken = 1024

        /// `maxMiBPerToken` in bytes.
        public var maxBytesPerToken: Int { maxMiBPerToken << 20 }

        public init() {}
    }

    /// Reads the `responses` object (`nil` = all defaults).
    static func parseResponses(_ r: JSONReader?) throws(JSONShapeError) -> Responses {
        var out = Responses()
        guard let r else { return out }
        try r.rejectUnknownKeys(["retention_hours", "max_mib_per_token", "$comment"])
        if let v = try r.optionalDouble("retention_hours") {
            guard v >= 0, v <= 24 * 365 else { throw r.error("retention_hours", "must be between 0 (keep nothing) and 8760 hours (a year)") }
            out.retentionHours = v
        }
        if let v = try r.optionalInt("max_mib_per_token") {
            guard v >= 8, v <= 1 << 20 else {
                throw r.error("max_mib_per_token", "must be between 8 (the longest conversation kept for one response) and 1048576 MiB (a TiB); it bounds what one token's stored responses hold together")
            }
            out.maxMiBPerToken = v
        }
        return out
    }
}
