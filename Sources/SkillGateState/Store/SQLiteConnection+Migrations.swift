import CSQLite

extension SQLiteConnection {
    /// The schema version stored in `PRAGMA user_version` (0 for a new database).
    public func userVersion() throws(SQLiteError) -> Int {
        Int(try prepare("PRAGMA user_version").firstRow { $0.int64(0) } ?? 0)
    }

    /// Brings the schema up to date: `steps[i]` is the SQL that moves version `i` to `i + 1`.
    /// Runs the missing steps and sets `user_version` in one `BEGIN IMMEDIATE` transaction, so two
    /// processes opening a new database at once cannot both migrate, and a failed step leaves the
    /// database as it was. Running it again is a no-op. Returns the versions before and after.
    /// A database already up to date is only read: no write lock is taken, so a process that only reads (`skillgate
    /// notes list`, `usage`) or a gateway starting opens the file while another holds its write lock (an operator's
    /// `sqlite3` session, a backup, a `VACUUM`), where it waited out the busy timeout and failed before (decision 0124).
    @discardableResult
    public func migrate(_ steps: [String]) throws -> (from: Int, to: Int) {
        let seen = try userVersion()
        if seen == steps.count { return (seen, seen) }
        return try transaction {
            let current = try userVersion()
            guard current <= steps.count else {
                throw SQLiteError(code: SQLITE_ERROR,
                                  message: "schema version \(current) is newer than version \(steps.count) known to this SkillGate; upgrade SkillGate or use another state directory",
                                  context: "migrating \(path)")
            }
            for step in steps[current...] { try execute(step) }
            if current != steps.count { try execute("PRAGMA user_version = \(steps.count)") }
            return (current, steps.count)
        }
    }
}
