import SkillGateCore

/// What the four notes skills of one store share: the store, the queue it is called on (one call at a time:
/// `NotesSkills.storeCalls`) and how long a call may take (`server_skills.notes.timeout_seconds`).
struct NotesAccess: Sendable {
    let store: any NotesStore
    let calls: BlockingWorkQueue
    let timeout: Duration

    /// Runs `work` with the store on the queue, off the caller's thread, and returns what it returns.
    func run<T: Sendable>(_ work: @escaping @Sendable (any NotesStore) throws -> T) async throws -> T {
        let store = self.store
        return try await calls.run { try work(store) }
    }
}
