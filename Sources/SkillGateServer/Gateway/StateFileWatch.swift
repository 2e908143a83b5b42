import SkillGateState
import Synchronization

/// Notices when the SQLite state file the gateway opened at start is deleted or replaced while it runs (decision 0099).
///
/// SQLite goes on using the file it opened, which no other process finds any more: tokens created or revoked with the
/// CLI from then on are in another file the gateway never reads, and what the gateway writes (usage, stored responses,
/// notes; tokens and usage too when they are not on PostgreSQL) is gone at the next restart. Requests are still served,
/// so nothing else would show it. A change is logged once (an error, and an `info` line if the file comes back), and
/// `problem` makes `/readyz` answer 503 until then.
final class StateFileWatch: Sendable {
    private let store: SQLiteStateStore
    private let report: @Sendable (_ message: String, _ level: String) -> Void
    /// The message of the problem seen at the last check, or nil.
    private let current = Mutex<String?>(nil)

    /// - Parameter report: where a change is told (the request log).
    init(store: SQLiteStateStore, report: @escaping @Sendable (_ message: String, _ level: String) -> Void) {
        self.store = store
        self.report = report
    }

    /// What is wrong with the state file as of the last `check`, or nil.
    var problem: String? { current.locked { $0 } }

    /// Looks once (a `stat` of the path) and tells a change.
    func check() {
        let message: String? = store.databaseFileHasMoved
            ? "the state database \(store.path) was deleted or replaced while the gateway runs: it goes on using the file it opened, so tokens created or revoked with the CLI from now on are not seen, and what it writes is lost at the next restart. Put the file back (or stop the gateway, restore it and start again: see \"Backups\" in the README)"
            : nil
        let changed = current.locked { current -> Bool in
            defer { current = message }
            return current != message
        }
        guard changed else { return }
        if let message { report(message, "error") } else { report("the state database \(store.path) is the file the gateway opened again", "info") }
    }
}
