#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkillGateKeys
import Synchronization

/// The embedded `StateStore`: one SQLite database (WAL mode) in the state directory, created 0600.
///
/// One connection guarded by a `Mutex`. That is enough at a gateway's write rates: token lookups
/// are served from `TokenService`'s cache, last-used times are batched (at most one write per
/// token per minute), and a usage insert with prepared statements and `synchronous=NORMAL` in WAL
/// takes tens of microseconds, so even thousands of requests per second keep the lock mostly
/// free. SQLite allows one writer at a time anyway; more connections would add readers only.
/// Other processes (the CLI) can use the same file: WAL lets them read while we write, and
/// `busy_timeout` makes writers wait for each other instead of failing.
public final class SQLiteStateStore: StateStore {
    /// The database file.
    public let path: String
    private let connection: Mutex<SQLiteConnection>

    /// Opens `fileName` in `stateDirectory`, creating the directory (0700) and the file (0600)
    /// when missing, and migrates the schema.
    public convenience init(stateDirectory: String, fileName: String = "state.sqlite") throws {
        try self.init(path: stateDirectory + "/" + fileName)
    }

    /// Opens (creating 0600 when missing) the database at `path` and migrates the schema.
    public init(path: String) throws {
        self.path = path
        let directory = PathText.directory(of: path)
        if try !FileIdentityProbe.exists(directory) { try FilePermissions.createPrivateDirectory(directory) }
        try Self.createPrivateFile(path)
        let db = try SQLiteConnection(path: path)
        // WAL: readers (the CLI) never block the server's writes; NORMAL sync is durable across
        // process crashes and loses at most the last transactions on power loss.
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA synchronous = NORMAL")
        try db.migrate(StateSchema.steps)
        connection = Mutex(db)
    }

    /// Runs `body` with exclusive use of the connection: for code in this process that keeps its own
    /// tables in the same file (create them with `IF NOT EXISTS`; `PRAGMA user_version` belongs to
    /// the state schema). Keep `body` short: every token and usage call waits for it.
    @discardableResult
    public func withConnection<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.withLock { db throws -> T in try body(db) }
    }

    /// The schema version (`PRAGMA user_version`).
    public func schemaVersion() throws -> Int {
        try withConnection { try $0.userVersion() }
    }

    /// Creates the database file with mode 0600 before SQLite does (SQLite would use 0644 minus
    /// the umask; its -wal and -shm files copy the database's mode). An existing file of ours that
    /// group or others can read is tightened to 0600.
    private static func createPrivateFile(_ path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw KeyStoreError.system(operation: "create the state database", path: path, errno: errno) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw KeyStoreError.system(operation: "inspect", path: path, errno: errno) }
        if UInt32(st.st_uid) == currentUID, UInt32(st.st_mode) & 0o077 != 0, fchmod(fd, 0o600) != 0 {
            throw KeyStoreError.system(operation: "set mode 0600 on", path: path, errno: errno)
        }
    }
}

/// Existence checks that tell "missing" apart from real errors.
enum FileIdentityProbe {
    static func exists(_ path: String) throws(KeyStoreError) -> Bool {
        try FileIdentity.of(path: path) != nil
    }
}
