import FoundationEssentials
import Glibc
import Dispatch

/// How the deployments of one plan are ordered before the first attempt.
public enum BalanceStrategy: String, Sendable, Hashable, CaseIterable {
    /// The plan's order (tier order in config): the first is preferred, the rest are fallbacks.
    case ordered
    /// A weighted random order: a deployment with weight 3 goes first three times as often as one with weight 1.
    case weighted
    /// Fewest calls in flight first; ties keep the plan's order.
    case leastInFlight = "least_in_flight"
}

/// Orders the deployments of a plan by the configured strategy. Fallback still walks the whole
/// order: balancing decides who goes first, never who may be tried.
public struct LoadBalancer: Sendable, Hashable {
    public var strategy: BalanceStrategy
    /// Weights by `provider/model`; unlisted deployments weigh `1`.
    public var weights: [String: Double]

    public init(strategy: BalanceStrategy = .ordered, weights: [String: Double] = [:]) {
        self.strategy = strategy
        self.weights = weights
    }

    /// The order (indices into `deployments`) in which to try them.
    /// - Parameters:
    ///   - inFlight: calls in flight per deployment (same order as `deployments`), for `leastInFlight`.
    ///   - unitRandom: uniform random numbers in [0, 1), for `weighted`.
    public func order(_ deployments: [String], inFlight: [Int], unitRandom: () -> Double) -> [Int] {
        let indices = Array(deployments.indices)
        guard deployments.count > 1 else { return indices }
        switch strategy {
        case .ordered:
            return indices
        case .leastInFlight:
            return indices.sorted { a, b in
                let (la, lb) = (inFlight[a], inFlight[b])
                return la != lb ? la < lb : a < b
            }
        case .weighted:
            // Efraimidis–Spirakis: key = u^(1/w), largest first. The first pick is weight-proportional,
            // and so is each later pick among the rest.
            let keyed = indices.map { i -> (Int, Double) in
                let w = max(weights[deployments[i]] ?? 1, 1e-9)
                let u = max(unitRandom(), 1e-12)
                return (i, pow(u, 1 / w))
            }
            return keyed.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)
        }
    }
}
