import SkillGateCore

/// The two model tiers the router chooses between.
public enum RouteTier: String, Sendable, Hashable, CaseIterable {
    /// Cheap and fast: small talk, lookups, translation, short rewrites.
    case light
    /// Capable and more expensive: proofs, derivations, debugging, design, long context.
    case strong

    /// The other tier.
    public var other: RouteTier { self == .light ? .strong : .light }
}

/// An explicit tier a client asks for with the `x-skillgate-tier` header.
public enum TierHint {
    /// The header's name.
    public static let header = "x-skillgate-tier"

    /// Parses the header value: `light` or `strong` (case-insensitive) force the tier; a missing
    /// or empty header, or `auto`, means "let the router decide" (`nil`). Anything else is a 400
    /// that names the header, so a typo never routes silently.
    public static func parse(_ value: String?) throws(GatewayError) -> RouteTier? {
        guard let value else { return nil }
        let v = String(value.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()).lowercased()
        if v.isEmpty || v == "auto" { return nil }
        guard let tier = RouteTier(rawValue: v) else {
            throw GatewayError.invalidRequest(
                "the \(header) header must be \"light\", \"strong\" or \"auto\", got \"\(value.prefix(40))\"; remove it to let the router decide",
                param: header)
        }
        return tier
    }
}
