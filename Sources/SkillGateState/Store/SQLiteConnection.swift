import CSQLite

/// One SQLite database connection: `execute` scripts, `prepare` (or reuse cached) statements,
/// run transactions, and migrate the schema (`SQLiteConnection+Migrations.swift`).
///
/// Opened in SQLite's multi-thread mode (no internal mutex): the connection is not `Sendable`
/// and must be used by one thread at a time, e.g. inside a `Mutex` as `SQLiteStateStore` does.
public final class SQLiteConnection {
    let handle: OpaquePointer
    /// The database file.
    public let path: String
    /// How long SQLite waits for another connection's lock before a statement fails with `SQLITE_BUSY`.
    public let busyTimeoutMilliseconds: Int32
    private var cache: [String: SQLiteStatement] = [:]

    /// Opens (creating if needed) the database at `path`, with extended result codes, foreign keys
    /// on, and `busyTimeoutMilliseconds` of waiting for other processes' locks. A `path` that is a
    /// symbolic link is refused (`SQLITE_OPEN_NOFOLLOW`, SQLite 3.31 or later).
    /// `readOnly` opens an existing database for reading only (no create, every write refused by SQLite).
    public init(path: String, busyTimeoutMilliseconds: Int32 = 5000, readOnly: Bool = false) throws(SQLiteError) {
        Self.configureOnce
        var db: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message, context: "opening \(path)")
        }
        handle = db
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        try execute("PRAGMA foreign_keys = ON")
    }

    /// Process-wide settings, made before the first connection initializes SQLite: no memory statistics (they take
    /// a global mutex around every allocation SQLite makes, and nothing reads them). If SQLite was initialized
    /// already (by other code in the process), the call fails and the defaults stay: harmless.
    private static let configureOnce: Void = { _ = sg_sqlite3_disable_memstatus() }()

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements that return no rows of interest.
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, context: "running: \(sql)")
        }
    }

    /// A new prepared statement for `sql` (one statement).
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: lastErrorMessage, context: "preparing: \(sql)")
        }
        return SQLiteStatement(handle: statement, sql: sql)
    }

    /// The prepared statement for `sql`, prepared once and reused (reset before each use by `bind`).
    public func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = cache[sql] { return cached }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// Runs `body` in a transaction that takes the write lock at once (`BEGIN IMMEDIATE`), so it
    /// cannot fail half-way with `SQLITE_BUSY` on lock upgrade. Commits when `body` returns,
    /// rolls back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// `BEGIN IMMEDIATE` without waiting for the write lock: false, with no transaction begun, when another connection
    /// holds it (`SQLITE_BUSY`). For a caller that waits for the lock elsewhere, without holding this connection
    /// (`SQLiteStateStore.withWriteTransaction`). After a true, end the transaction with `COMMIT` or `ROLLBACK`.
    public func beginImmediateIfFree() throws(SQLiteError) -> Bool {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
        do {
            try execute("BEGIN IMMEDIATE")
            return true
        } catch where error.primaryCode == SQLITE_BUSY {
            return false
        }
    }

    /// The single value a `PRAGMA name` returns (`journal_mode`, `user_version`, ...).
    public func pragma(_ name: String) throws(SQLiteError) -> String? {
        (try prepare("PRAGMA \(name)").firstRow { $0.optionalText(0) }) ?? nil
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    private var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }
}
