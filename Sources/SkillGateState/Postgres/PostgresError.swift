/// A PostgreSQL failure: what libpq or the server said, the SQLSTATE when there is one, and what was being done.
/// Never carries the connection URL (it may hold a password).
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// The five-character SQLSTATE (`23505` unique violation), nil for connection failures.
    public var sqlState: String?
    public var message: String
    public var context: String
    /// The connection was lost while the server was committing a transaction, so whether it was committed is not
    /// known from this error alone (`PostgresConnection.identifiedTransaction` says how to find out).
    public var commitOutcomeUnknown = false

    public var description: String {
        "PostgreSQL \(context): \(message.trimmingWhitespace())"
    }

    /// A unique constraint was violated (`23505`).
    public var isUniqueViolation: Bool { sqlState == "23505" }
}
