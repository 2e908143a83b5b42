/// How the answers of one call are checked (decided by the prepare stage, applied by the execute
/// stage).
struct AnswerPolicy: Sendable, Hashable {
    /// The targets (`provider/model`) of the escalation plan; `nil` = the call does not escalate.
    /// An answer from one of them is never escalated (it would re-run on itself).
    var escalationTargets: Set<String>?
    var scenario: String
    /// In an agent run, a call to a tool the model was not shown goes back to the model as an
    /// error result (the loop's job) instead of failing the request.
    var invisibleCallsToModel = false

    /// Whether an unusable answer of `target` is re-run on the escalation tier.
    func escalates(_ target: String) -> Bool {
        guard let escalationTargets else { return false }
        return !escalationTargets.contains(target)
    }

    /// The policy of the escalated call (nothing escalates twice).
    var escalated: AnswerPolicy {
        var p = self
        p.escalationTargets = nil
        return p
    }
}
