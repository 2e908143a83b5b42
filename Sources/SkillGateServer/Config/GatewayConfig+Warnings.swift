import SkillGateProviders

/// Settings that load and run but work against each other: reported by `skillgate config check` and logged as `warn`
/// events when the gateway starts, never refused (an existing config keeps working).
extension GatewayConfig {
    /// One sentence each, saying what goes wrong and what to set instead.
    public var warnings: [String] {
        var out: [String] = []
        let firstByte = upstreamTimeouts.firstByteSeconds, deadline = resilience.deadlineSeconds
        let withFallbacks = ModelTier.allCases.filter { (tiers[$0]?.count ?? 0) > 1 }.map(\.rawValue)
        if firstByte >= deadline, !withFallbacks.isEmpty {
            out.append("upstream_timeouts.first_byte_seconds (\(Self.seconds(firstByte))) is not below resilience.deadline_seconds (\(Self.seconds(deadline))): a deployment that hangs before its first byte uses the whole deadline, so the next deployment of \(withFallbacks.count == 1 ? "tier" : "tiers") \(withFallbacks.joined(separator: ", ")) never runs; set first_byte_seconds to about half the deadline (decision 0108)")
        }
        return out
    }

    private static func seconds(_ s: Double) -> String {
        s == s.rounded() ? String(Int(s)) : String(s)
    }
}
