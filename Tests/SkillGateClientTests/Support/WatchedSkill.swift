import Synchronization
import SkillGateCore
import SkillGateSkills

/// A server skill that runs until the gateway cancels it and records when that happened: the
/// moment the server acted on the client going away. The demo model calls it for "what time is
/// it?" (its name and description speak of the clock).
final class WatchedSkill: Skill {
    private let state = Mutex<(started: Bool, cancelledAt: ContinuousClock.Instant?)>((false, nil))

    var id: String { "test.slow_clock" }
    var name: String { "slow_clock" }
    var description: String { "Tells the clock time, slowly" }
    var parameters: JSONValue { ["type": "object", "properties": [:]] }
    var version: String { "1" }
    var timeout: Duration { .seconds(60) }
    var requiresConfirmation: Bool { false }

    /// Whether the gateway started it.
    var started: Bool { state.locked { $0.started } }
    /// When its run was cancelled, if it was.
    var cancelledAt: ContinuousClock.Instant? { state.locked { $0.cancelledAt } }

    func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        state.locked { $0.started = true }
        try await withTaskCancellationHandler {
            try await Task.sleep(for: .seconds(60))
        } onCancel: {
            let now = ContinuousClock.now
            state.locked { $0.cancelledAt = $0.cancelledAt ?? now }
        }
        return SkillResult(text: "it is late")
    }
}
