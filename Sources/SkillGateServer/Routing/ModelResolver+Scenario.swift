import SkillGateCore

/// Which scenario a request runs in, and the errors when it may not run in it.
extension ModelResolver {
    /// The scenario a request runs in: the one it names (header or body), else the token's (`AccessScope.scenario(
    /// whenNoneNamedBy:)`: its default, else its only scenario), else the gateway's `default_scenario`. `param` names
    /// where a requested name came from, for the errors (`scenario` when a request body named it). A 404 for a scenario
    /// not configured, a 403 for one outside the token's scope; both say whether the request named it.
    public func scenario(named requested: String?, scope: AccessScope, param: String = "x-skillgate-scenario") throws(GatewayError) -> (name: String, config: GatewayConfig.ScenarioConfig) {
        let name = requested ?? scope.scenario(whenNoneNamedBy: config.defaultScenario)
        let configured = config.scenarios.keys.sorted().joined(separator: ", ")
        guard let s = config.scenarios[name] else {
            let message = requested == nil
                ? "this token's default scenario \"\(name)\" is not configured; configured scenarios: \(configured); send `x-skillgate-scenario: <one of them>`, or make a token with another `--default-scenario`"
                : "unknown scenario \"\(name)\"; configured scenarios: \(configured)"
            throw GatewayError(domain: .caller, kind: .notFound, status: 404, message: message, param: param)
        }
        guard scope.allows(scenario: name) else {
            let allowed = scope.scenarios.joined(separator: ", ")
            let message = requested == nil
                ? "this request named no scenario, and the gateway's default scenario \"\(name)\" is not one this token may use (\(allowed)); send `x-skillgate-scenario: <one of them>`, or make the token with `--default-scenario <one of them>` (admin API: \"default_scenario\")"
                : "this token may not use scenario \"\(name)\"; it is scoped to: \(allowed)"
            throw GatewayError(domain: .policy, kind: .permission, status: 403, message: message, param: param)
        }
        return (name, s)
    }
}
