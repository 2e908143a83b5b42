import Synchronization

/// A connection of its own to the store's server, made at its first use, for work that must neither wait for the main
/// connection (token lookups, ledger batches) nor hold it up: the long usage reads (decision 0089) and the notes
/// (decision 0122). A failed attempt to connect is tried again at the next use.
final class PostgresSideConnection: Sendable {
    private let connection = Mutex<PostgresConnection?>(nil)
    /// The server's URL (kept in memory only: it may hold a password).
    private let url: String
    private let notices: (@Sendable (String) -> Void)?
    /// Each statement's bound (`PostgresConnection.answerTimeout`).
    private let answerTimeout: Duration?

    init(url: String, answerTimeout: Duration?, notices: (@Sendable (String) -> Void)?) {
        self.url = url
        self.answerTimeout = answerTimeout
        self.notices = notices
    }

    /// Runs `body` with exclusive use of the connection, made now if it is not yet; nil, and `body` not run, when it
    /// cannot be made (the server at its `max_connections`, say): the caller then uses its main connection.
    func run<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T? {
        try connection.locked { db throws -> T? in
            if let open = db { return try body(open) }
            guard let opened = try? PostgresConnection(url: url, answerTimeout: answerTimeout, notices: notices) else { return nil }
            db = opened
            return try body(opened)
        }
    }

    /// Runs `body` with exclusive use of the connection, made now if it is not yet; when it cannot be made, throws why
    /// (libpq's reason and what to check), for callers that must never fall back on the main connection.
    func runConnected<T: Sendable>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try connection.locked { db throws -> T in
            if let open = db { return try body(open) }
            let opened = try PostgresConnection(url: url, answerTimeout: answerTimeout, notices: notices)
            db = opened
            return try body(opened)
        }
    }
}
