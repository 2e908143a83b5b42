import SkillGateRouting

/// One entry of a log line's `attempts`: an attempt, whose text (`AttemptRecord.logText`) is made when the line is
/// written rather than on the request's way to its first byte, or a note the pipeline adds (an escalation).
enum AttemptLogItem: Sendable, Equatable {
    case attempt(AttemptRecord)
    case note(String)

    /// The text the log line shows.
    var text: String {
        switch self {
        case .attempt(let record): record.logText
        case .note(let text): text
        }
    }
}
