import CSQLite
import Glibc
import Synchronization

/// The embedded `StateStore`: one SQLite database (WAL mode) in the state directory, created 0600,
/// opened only after `StateFileTrust` checked it.
///
/// One connection guarded by a `Mutex` for everything short. That is enough at a gateway's write
/// rates: token lookups are served from `TokenService`'s cache, last-used times are batched (at most
/// one write per token per minute), and a usage insert with prepared statements and `synchronous=NORMAL`
/// in WAL takes tens of microseconds, so even thousands of requests per second keep the lock mostly
/// free. SQLite allows one writer at a time anyway. The ledger's long reads (the usage reports and
/// sums over its rows, ~0.8 s over a million rows) use a second, read-only connection, opened at the
/// first of them, so a console's report never holds up a token lookup or a ledger batch (decision 0089).
/// Other processes (the CLI) can use the same file: WAL lets them read while we write, and writers wait for each other
/// instead of failing. A writer of this store waits for another process's write lock (an operator's `sqlite3` session,
/// a `VACUUM`, a backup tool) with the main connection released (`withWriteTransaction`), so the short reads on a
/// request's path go on meanwhile: WAL readers never wait for a writer (decision 0100).
public final class SQLiteStateStore: StateStore {
    /// The database file.
    public let path: String
    private let connection: Mutex<SQLiteConnection>
    /// The read-only connection of the long reads; nil until the first.
    private let reader = Mutex<SQLiteConnection?>(nil)
    /// When the ledger writer last dropped expired minute totals.
    let rollupPrune = UsageRollup.PruneSchedule()
    /// The device and inode of the file opened at start (`databaseFileHasMoved`).
    private let openedFile: FileIdentity?
    /// How long a write waits for another process's write lock, and a statement for any other lock, before failing.
    public let busyTimeout: Duration

    /// Opens `fileName` in `stateDirectory`, creating the directory (0700) and the file (0600)
    /// when missing, and migrates the schema.
    public convenience init(stateDirectory: String, fileName: String = "state.sqlite", busyTimeout: Duration = .seconds(5)) throws {
        try self.init(path: stateDirectory + "/" + fileName, busyTimeout: busyTimeout)
    }

    /// Opens (creating 0600 when missing) the database at `path` and migrates the schema. Throws
    /// `StateFileError` (with the `chmod`/`chown` that fixes it) when the file, its `-wal`/`-shm`
    /// files or its directory are a symbolic link, belong to another user, or can be changed by
    /// group or others (`StateFileTrust`). `busyTimeout` is how long a write waits for another process's write lock.
    public init(path: String, busyTimeout: Duration = .seconds(5)) throws {
        self.path = path
        self.busyTimeout = busyTimeout
        try StateFileTrust.prepare(path)
        let db = try SQLiteConnection(path: path, busyTimeoutMilliseconds: Self.milliseconds(busyTimeout))
        // WAL: readers (the CLI) never block the server's writes; NORMAL sync is durable across
        // process crashes and loses at most the last transactions on power loss.
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA synchronous = NORMAL")
        try db.migrate(StateSchema.steps)
        try Self.foldUnfoldedNotes(db)
        connection = Mutex(db)
        openedFile = FileIdentity(path: path)
    }

    /// Runs `body` with exclusive use of the connection: for reads, and for code in this process that keeps its own
    /// tables in the same file (create them with `IF NOT EXISTS`; `PRAGMA user_version` belongs to
    /// the state schema). Keep `body` short: every token and usage call waits for it. Write through
    /// `withWriteTransaction`: a write here waits for another process's write lock holding the connection.
    @discardableResult
    public func withConnection<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.locked { db throws -> T in try body(db) }
    }

    /// Runs `body` on the main connection in a transaction that holds the write lock (`BEGIN IMMEDIATE`): commits when
    /// it returns, rolls back when it throws. While another connection holds the write lock (another process: the CLI,
    /// an operator's `sqlite3` session, a `VACUUM`, a backup tool), it waits *without* holding the main connection,
    /// trying again after 1 ms, 2 ms, ... up to 25 ms between tries, so the reads on a request's path (its token, a
    /// stored response, a budget's running totals) go on meanwhile. SQLite's own wait (`busy_timeout`) would hold the
    /// connection for all of it: 5 s at each try of the ledger's writer, back to back (decision 0100). Throws
    /// `SQLITE_BUSY` when the lock stayed taken for `busyTimeout`.
    @discardableResult
    public func withWriteTransaction<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now + busyTimeout
        var pause = Duration.milliseconds(1)
        while true {
            let attempt = try connection.locked { db throws -> WriteAttempt<T> in
                guard try db.beginImmediateIfFree() else { return .lockTaken }
                do {
                    let result = try body(db)
                    try db.execute("COMMIT")
                    return .done(result)
                } catch {
                    try? db.execute("ROLLBACK")
                    throw error
                }
            }
            if case .done(let result) = attempt { return result }
            let now = clock.now
            guard now < deadline else {
                throw SQLiteError(code: SQLITE_BUSY, message: "database is locked",
                                  context: "waiting \(busyTimeout) for another process's write lock on \(path)")
            }
            usleep(UInt32((min(pause, deadline - now) / .microseconds(1)).rounded(.up)))
            pause = min(pause * 2, .milliseconds(25))
        }
    }

    /// One try of `withWriteTransaction`.
    private enum WriteAttempt<T: Sendable>: Sendable {
        case done(T)
        case lockTaken
    }

    /// `duration` in milliseconds (rounded up), within SQLite's `Int32`.
    static func milliseconds(_ duration: Duration) -> Int32 {
        Int32(min((duration / .milliseconds(1)).rounded(.up), Double(Int32.max)))
    }

    /// Whether `state.sqlite` was deleted or replaced since this store opened it (its path no longer leads to the file
    /// opened at start, which the store's connections go on using). A `stat`; never waits for a connection.
    public var databaseFileHasMoved: Bool {
        guard let openedFile else { return false }
        return FileIdentity(path: path) != openedFile
    }

    /// A file's device and inode, or nil when nothing is at `path`.
    private struct FileIdentity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64

        init?(path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }
    }

    /// Runs `body` with exclusive use of the read-only connection of long reads (opened at the first call), which
    /// sees every committed transaction and never waits for `withConnection`'s users, nor they for it (WAL). When that
    /// connection cannot be opened (the file was moved or removed under the running store, its directory made
    /// unreadable), `body` runs on the main connection, as every read did before decision 0089, and the next call
    /// tries to open it again.
    @discardableResult
    public func withReadConnection<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let answered = try reader.locked { db throws -> T? in
            if let open = db { return try body(open) }
            guard let opened = try? SQLiteConnection(path: path, busyTimeoutMilliseconds: Self.milliseconds(busyTimeout), readOnly: true) else { return nil }
            db = opened
            return try body(opened)
        }
        if let answered { return answered }
        return try withConnection(body)
    }

    /// The schema version (`PRAGMA user_version`).
    public func schemaVersion() throws -> Int {
        try withConnection { try $0.userVersion() }
    }
}
