import CSQLite

/// A failed SQLite call: the result code, SQLite's message, what SkillGate was doing, and advice.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The (extended) SQLite result code.
    public var code: Int32
    /// SQLite's own message.
    public var message: String
    /// What SkillGate was doing ("opening /var/lib/skillgate/state.sqlite", "preparing: SELECT ...").
    public var context: String

    public init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// The primary result code (`SQLITE_BUSY` for `SQLITE_BUSY_SNAPSHOT`, ...).
    public var primaryCode: Int32 { code & 0xFF }

    /// Whether a uniqueness, foreign-key or check rule was broken.
    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }

    public var description: String {
        "SQLite error \(code) while \(context): \(message). \(advice)"
    }

    private var advice: String {
        switch primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return "Another process held the database lock too long; retry, or stop the other process using the state directory"
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
            return "Check that the state directory exists and that SkillGate's user can read and write it"
        case SQLITE_READONLY:
            return "The database or its directory is read-only; make both writable by SkillGate's user"
        case SQLITE_FULL:
            return "The disk is full; free space in the state directory's file system"
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return "The file is damaged or not a SkillGate database; restore it from a backup or move it away to start fresh"
        case SQLITE_IOERR:
            return "The operating system reported an I/O error; check the disk and the file system"
        case SQLITE_CONSTRAINT:
            return "A stored value broke a uniqueness or reference rule; check the names and ids involved"
        default:
            return "See https://sqlite.org/rescode.html for the code"
        }
    }
}
