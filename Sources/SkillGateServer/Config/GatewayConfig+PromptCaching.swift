import SkillGateCore

/// Prompt caching (decision 0032): where the gateway places cache breakpoints for providers that need explicit
/// ones (Anthropic), globally (`prompt_caching`) and per scenario (`scenarios.<name>.prompt_caching`).
extension GatewayConfig {
    /// The top-level keys this file reads.
    static let promptCachingKeys: Set<String> = ["prompt_caching"]

    /// `{"breakpoints": "off" | "prefix"}` at `key` of `r`, or nil when absent.
    static func parsePromptCaching(_ r: JSONReader, _ key: String = "prompt_caching") throws(JSONShapeError) -> CacheBreakpointPlacement? {
        guard let p = try r.optionalObject(key) else { return nil }
        try p.rejectUnknownKeys(["breakpoints", "$comment"])
        guard let text = try p.optionalString("breakpoints") else { return nil }
        guard let placement = CacheBreakpointPlacement(rawValue: text) else {
            throw p.error("breakpoints", "expected \"off\" (only the client's breakpoints) or \"prefix\" (one after the tools and one after the system prompt when the client sent none), got \"\(text)\"")
        }
        return placement
    }

    /// The placement for a request: the `x-skillgate-cache-breakpoints` header, else the scenario's, else the gateway's.
    func cachePlacement(header: String?, scenario: ScenarioConfig) throws(GatewayError) -> CacheBreakpointPlacement {
        if let header {
            guard let placement = CacheBreakpointPlacement(rawValue: header.trimmingWhitespace()) else {
                throw GatewayError.invalidRequest("x-skillgate-cache-breakpoints: expected \"off\" or \"prefix\", got \"\(header)\"; leave the header out to use the scenario's setting.",
                                                  param: "x-skillgate-cache-breakpoints")
            }
            return placement
        }
        return scenario.promptCaching ?? promptCaching
    }
}
