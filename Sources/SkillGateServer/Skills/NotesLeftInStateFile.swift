import SkillGateState

/// Notes a gateway with `state.postgres_url` does not use: those saved in its SQLite state file before PostgreSQL was
/// set. They are not copied (decision 0122: the ids of several instances' files overlap, and a copy would renumber
/// notes a model or client may still cite); the gateway says so at every start until they are deleted.
enum NotesLeftInStateFile {
    /// The warning to log at start, naming how many notes the file holds and the commands that show and delete them;
    /// nil when it holds none. Unreadable counts are a warning too (the operator should know the file may hold some).
    static func warning(_ stateStore: SQLiteStateStore) -> String? {
        let counts: [(tokenName: String, count: Int)]
        do {
            counts = try stateStore.noteCounts()
        } catch {
            return "could not count the notes left in state.sqlite (\(error)); the notes skills keep notes in PostgreSQL (state.postgres_url), and `skillgate notes list --sqlite` shows any the file still holds"
        }
        guard !counts.isEmpty else { return nil }
        let notes = counts.reduce(0) { $0 + $1.count }
        return "state.sqlite holds \(notes) note\(notes == 1 ? "" : "s") of \(counts.count) token name\(counts.count == 1 ? "" : "s") saved before state.postgres_url was set; "
            + "the notes skills keep notes in PostgreSQL and do not see them, and they are not copied (decision 0122). "
            + "`skillgate notes list --sqlite` shows them; `skillgate notes delete --sqlite --token NAME --all` deletes a name's once they are not needed"
    }
}
