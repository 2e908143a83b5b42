import SkillGateCore

extension GatewayConfig {
    /// The `responses` section: how long the Responses API (`POST /v1/responses`) keeps answers for
    /// `previous_response_id` (decision 0028).
    ///
    /// ```json
    /// "responses": {"retention_hours": 24}
    /// ```
    public struct Responses: Sendable, Hashable {
        /// Hours a stored response can be continued; 0 keeps none (`previous_response_id` is then
        /// always a 404, and `store` is reported false). Default 24.
        public var retentionHours = 24.0

        public init() {}
    }

    /// Reads the `responses` object (`nil` = all defaults).
    static func parseResponses(_ r: JSONReader?) throws(JSONShapeError) -> Responses {
        var out = Responses()
        guard let r else { return out }
        try r.rejectUnknownKeys(["retention_hours", "$comment"])
        if let v = try r.optionalDouble("retention_hours") {
            guard v >= 0, v <= 24 * 365 else { throw r.error("retention_hours", "must be between 0 (keep nothing) and 8760 hours (a year)") }
            out.retentionHours = v
        }
        return out
    }
}
