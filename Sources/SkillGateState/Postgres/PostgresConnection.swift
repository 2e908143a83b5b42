import CPostgres
import FoundationEssentials
import Glibc
import Dispatch

/// One libpq connection: parameterised queries in text format, transactions, reconnection after a lost connection.
///
/// Not `Sendable`: use it from one thread at a time, inside a `Mutex` as `PostgresStateStore` does (the pointer is
/// confined to that lock).
public final class PostgresConnection {
    private(set) var handle: OpaquePointer
    /// The longest a statement (or a COPY) waits for the server's answer before the connection is dropped and the
    /// statement fails (decision 0163); nil waits as long as the socket stays open. May be changed between statements
    /// (a schema migration may take longer than a lookup).
    public var answerTimeout: Duration?
    /// The answer timeout's text for messages ("10 s").
    private var answerTimeoutText: String { answerTimeout.map { "\($0.components.seconds) s" } ?? "its answer" }
    /// `host:port/database` (for messages; never the URL, which may hold a password).
    public let target: String
    /// Where the server's notices go instead of libpq's standard error (nil: libpq's default).
    private let noticeSink: NoticeSink?
    /// Whether `transaction` is running its body or ending it. A lost connection ended the transaction on the server,
    /// so no statement of it is sent again on a new connection: it would run alone and be committed at once.
    private var inTransaction = false
    /// Until when, after a failed attempt to connect again, statements fail without another (`reconnect`).
    private var reconnectPausedUntil: ContinuousClock.Instant?

    /// Connects to `url` (`postgresql://user@host:port/db`, or libpq's `key=value` form; a password is better kept
    /// in `PGPASSWORD` or `~/.pgpass`). Throws with libpq's reason and what to check.
    ///
    /// `notices` receives the server's warnings (one message a call, without its final newline) for a process whose
    /// standard error is a log of its own; without it libpq prints them there as they are.
    ///
    /// `answerTimeout` bounds each statement's wait for the server (decision 0163).
    public init(url: String, connectTimeoutSeconds: Int = 5, answerTimeout: Duration? = .seconds(10),
                notices: (@Sendable (String) -> Void)? = nil) throws(PostgresError) {
        let keys = ["dbname", "connect_timeout", "application_name"]
        let values = [url, String(connectTimeoutSeconds), "skillgate"]
        let conn = Self.connect(keys: keys, values: values)
        guard let conn else { throw PostgresError(message: "out of memory", context: "connecting") }
        let target = Self.describe(conn)
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(conn))
            PQfinish(conn)
            throw PostgresError(message: message + " — check state.postgres_url and that the server is running and reachable",
                                context: "connecting to \(target)")
        }
        handle = conn
        self.target = target
        self.answerTimeout = answerTimeout
        noticeSink = notices.map(NoticeSink.init)
        if let noticeSink {
            // The sink lives as long as the connection, which outlives the handle (`deinit`), and libpq calls it only
            // inside this connection's own calls, on the thread making them.
            PQsetNoticeProcessor(conn, { context, message in
                guard let context, let message else { return }
                Unmanaged<NoticeSink>.fromOpaque(context).takeUnretainedValue().receive(message)
            }, Unmanaged.passUnretained(noticeSink).toOpaque())
        }
        applySessionSettings()
    }

    /// The session's settings, made again after each reconnection: only warnings and errors are sent as notices (libpq
    /// prints a notice on standard error, where a line that is not the gateway's JSON would break a log reader).
    /// The connection is also put in libpq's non-blocking mode, so no statement waits past `answerTimeout`.
    private func applySessionSettings() {
        PQsetnonblocking(handle, 1)
        if case .finished(let result?) = sendAndAwait({ PQsendQuery($0, "SET client_min_messages = warning") }) { PQclear(result) }
    }

    /// Connects again with the same parameters after the server ended the connection (a restart, a failover,
    /// `pg_terminate_backend`), with the session's settings.
    ///
    /// After an attempt that failed slowly, statements fail at once instead of trying again for as long as that
    /// attempt took (at most `maxReconnectPause`): a server that hangs takes each attempt its whole connect timeout, and
    /// the statements queued behind the store's lock would otherwise each wait out one (decision 0163). A server that
    /// refuses fails an attempt at once, so it is tried again at the next statement.
    private func reconnect() {
        if let pausedUntil = reconnectPausedUntil, ContinuousClock.now < pausedUntil { return }
        let started = ContinuousClock.now
        PQreset(handle)
        if PQstatus(handle) == CONNECTION_OK {
            reconnectPausedUntil = nil
            applySessionSettings()
        } else {
            let now = ContinuousClock.now
            let took = now - started
            reconnectPausedUntil = took < Self.slowReconnect ? nil : now + min(took, Self.maxReconnectPause)
        }
    }

    /// A failed attempt that took at least this long was a server that hangs (one that refuses fails at once), and
    /// pauses the attempts after it.
    static let slowReconnect: Duration = .seconds(1)

    /// The longest statements fail without trying to connect after a failed attempt.
    static let maxReconnectPause: Duration = .seconds(5)

    /// The error of a statement that found the connection lost and could not make it again.
    private func unreachable(_ context: String) -> PostgresError {
        var reason = String(cString: PQerrorMessage(handle))
        while reason.last?.isNewline == true { reason.removeLast() }
        return PostgresError(message: "the connection to the database was lost and could not be made again (\(reason.isEmpty ? "no reason given" : reason)); it is tried again at a later statement — check that the server is up and reachable",
                             context: context)
    }

    deinit { PQfinish(handle) }

    private static func connect(keys: [String], values: [String]) -> OpaquePointer? {
        var keyPointers = keys.map { strdup($0) } + [nil]
        var valuePointers = values.map { strdup($0) } + [nil]
        defer {
            keyPointers.forEach { free($0) }
            valuePointers.forEach { free($0) }
        }
        return keyPointers.withUnsafeMutableBufferPointer { k in
            valuePointers.withUnsafeMutableBufferPointer { v in
                k.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: k.count) { kp in
                    v.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: v.count) { vp in
                        PQconnectdbParams(kp, vp, 1)
                    }
                }
            }
        }
    }

    private static func describe(_ conn: OpaquePointer) -> String {
        let host = PQhost(conn).map { String(cString: $0) } ?? "?"
        let port = PQport(conn).map { String(cString: $0) } ?? "?"
        let db = PQdb(conn).map { String(cString: $0) } ?? "?"
        return "\(host):\(port)/\(db)"
    }

    /// Runs `sql` with `$1`, `$2`, ... bound to `params` (text; nil is NULL) and returns the rows.
    /// After a lost connection it reconnects once and retries, outside a transaction; inside one it throws, and the
    /// first query after the transaction reconnects. A statement whose answer did not come within `answerTimeout`
    /// throws at once (the server may have run it), and the next one connects again.
    @discardableResult
    public func query(_ sql: String, _ params: [String?] = []) throws(PostgresError) -> PostgresRows {
        try connectAgainIfLost("running \(sql.prefix(60))… on \(target)")
        var result = try run(sql, params)
        if PQstatus(handle) != CONNECTION_OK && !inTransaction {
            PQclear(result)
            try connectAgainIfLost("running \(sql.prefix(60))… on \(target)")
            result = try run(sql, params)
        }
        guard let result else { throw PostgresError(message: String(cString: PQerrorMessage(handle)), context: "running a query on \(target)") }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = String(cString: PQresultErrorMessage(result))
            PQclear(result)
            throw PostgresError(sqlState: state, message: message, context: "running \(sql.prefix(60))… on \(target)")
        }
        return PostgresRows(result)
    }

    /// Runs `COPY ... FROM STDIN` with `data` in COPY's text format (one line per row, tab-separated, `\N` for NULL):
    /// the server's bulk-load path, several times cheaper per row than an INSERT's parameters.
    public func copy(_ sql: String, data: [UInt8]) throws(PostgresError) {
        try connectAgainIfLost("starting \(sql.prefix(40))… on \(target)")
        let context = "copying rows with \(sql.prefix(40))… on \(target)"
        guard case .finished(let started) = sendAndAwait({ PQsendQuery($0, sql) }) else { throw timedOut(context) }
        guard let start = started else {
            throw PostgresError(message: String(cString: PQerrorMessage(handle)), context: "starting \(sql.prefix(40))… on \(target)")
        }
        let status = PQresultStatus(start)
        let startError = String(cString: PQresultErrorMessage(start))
        PQclear(start)
        guard status == PGRES_COPY_IN else { throw PostgresError(message: startError, context: "starting \(sql.prefix(40))… on \(target)") }
        // The rows and their end, then the result, all within one answer timeout from here.
        let deadline = answerTimeout.map { ContinuousClock.now + $0 }
        let sent = data.withUnsafeBytes { bytes in
            putWithin(deadline) { PQputCopyData(handle, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count)) }
        }
        let ended = sent ? putWithin(deadline) { PQputCopyEnd(handle, nil) } : putWithin(deadline) { PQputCopyEnd(handle, "the client could not send the rows") }
        if PQstatus(handle) != CONNECTION_OK, let deadline, ContinuousClock.now >= deadline { throw timedOut(context) }
        var failure: String? = ended ? nil : String(cString: PQerrorMessage(handle))
        switch awaitAnswer(until: deadline) {
        case .timedOut: throw timedOut(context)
        case .finished(let result):
            if let result {
                if PQresultStatus(result) != PGRES_COMMAND_OK, failure == nil { failure = String(cString: PQresultErrorMessage(result)) }
                PQclear(result)
            } else if failure == nil {
                failure = String(cString: PQerrorMessage(handle))
            }
        }
        if let failure { throw PostgresError(message: failure, context: context) }
    }

    /// One COPY text-format field: backslash, tab, newline and carriage return escaped; nil is `\N`.
    public static func copyField(_ value: String?, into out: inout [UInt8]) {
        guard var value else { out.append(0x5C); out.append(0x4E); return }
        // Most fields (numbers, ids, names) need no escape: appended whole.
        let plain = value.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain { return }
        for byte in value.utf8 {
            switch byte {
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x09: out.append(0x5C); out.append(0x74)
            case 0x0A: out.append(0x5C); out.append(0x6E)
            case 0x0D: out.append(0x5C); out.append(0x72)
            default: out.append(byte)
            }
        }
    }

    /// One COPY text-format field holding an integer, in decimal.
    public static func copyInteger<I: BinaryInteger>(_ value: I, into out: inout [UInt8]) {
        if value < 0 { out.append(0x2D) }
        var magnitude = UInt64(value.magnitude)
        guard magnitude > 0 else { out.append(0x30); return }
        // Digits from the right into a stack buffer, then appended at once (reversing a slice of `out` in place
        // copied the slice).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var first = digits.count
            while magnitude > 0 {
                first -= 1
                digits[first] = 0x30 + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[first...]))
        }
    }

    /// Runs one or more statements without parameters.
    public func execute(_ sql: String) throws(PostgresError) {
        try query(sql)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. When the server ends the
    /// connection meanwhile, the transaction ends with it, as a whole: the statement that found it lost (the `COMMIT`
    /// too) throws instead of running again on a new connection, and the query after the transaction reconnects. A
    /// `COMMIT` that lost the connection throws with `commitOutcomeUnknown`: the server may have committed before
    /// the connection went (`identifiedTransaction` gives what is needed to find out).
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        return try finishTransaction(body)
    }

    /// `transaction`, with the transaction's id (PostgreSQL's `xid8`, as text) handed to `body`: after a `COMMIT`
    /// that threw with `commitOutcomeUnknown`, `commitStatus(ofTransaction:)` on that id says whether it was committed.
    /// Taking the id costs nothing more than `BEGIN` (one round trip for both).
    public func identifiedTransaction<T>(_ body: (_ transactionId: String) throws -> T) throws -> T {
        let id: String?
        do {
            id = try query("BEGIN; SELECT pg_current_xact_id()::text").text(0, 0)
        } catch {
            abandonStartedTransaction()
            throw error
        }
        guard let id else {
            abandonStartedTransaction()
            throw PostgresError(message: "the server gave no transaction id", context: "starting a transaction on \(target)")
        }
        return try finishTransaction { try body(id) }
    }

    /// Rolls back a transaction whose start failed after its `BEGIN`, so the next one does not begin inside it.
    private func abandonStartedTransaction() {
        if PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) != PQTRANS_IDLE { try? execute("ROLLBACK") }
    }

    /// Added to the message of a `COMMIT` that lost the connection.
    static let lostCommitNote = " (the connection was lost while committing; the transaction may or may not have been committed)"

    private func finishTransaction<T>(_ body: () throws -> T) throws -> T {
        inTransaction = true
        defer { inTransaction = false }
        let value: T
        do {
            value = try body()
        } catch {
            if PQstatus(handle) == CONNECTION_OK { try? execute("ROLLBACK") }
            throw error
        }
        do {
            try execute("COMMIT")
        } catch var error {
            if PQstatus(handle) == CONNECTION_OK {
                try? execute("ROLLBACK")
            } else {
                error.commitOutcomeUnknown = true
                error.message += Self.lostCommitNote
            }
            throw error
        }
        return value
    }

    /// What became of transaction `id` (from `identifiedTransaction`), asked on this connection outside a transaction
    /// (reconnecting first when it was lost): `.committed`, `.rolledBack`, `.inProgress` while the server is still
    /// ending it, nil when the server no longer knows (an id older than its commit log keeps).
    public func commitStatus(ofTransaction id: String) throws(PostgresError) -> PostgresCommitStatus? {
        switch try query("SELECT pg_xact_status($1::xid8)", [id]).text(0, 0) {
        case "committed": .committed
        case "aborted": .rolledBack
        case "in progress": .inProgress
        default: nil
        }
    }

    /// Outside a transaction, connects again when the connection was lost; throws when it cannot. Inside one, a lost
    /// connection is left for the statement to fail on (the transaction ended with it).
    private func connectAgainIfLost(_ context: String) throws(PostgresError) {
        guard PQstatus(handle) != CONNECTION_OK, !inTransaction else { return }
        reconnect()
        guard PQstatus(handle) == CONNECTION_OK else { throw unreachable(context) }
    }

    /// The error of a statement whose answer did not come within `answerTimeout`.
    private func timedOut(_ context: String) -> PostgresError {
        PostgresError(message: "the database did not answer within \(answerTimeoutText), so the connection was dropped (the next statement connects again); check that the server is up and reachable: a server that hangs, a failover or a network partition holds answers back",
                      context: context)
    }

    /// `PQexec` (`PQexecParams` with parameters), bounded by `answerTimeout`.
    private func run(_ sql: String, _ params: [String?]) throws(PostgresError) -> OpaquePointer? {
        let outcome: BoundedOutcome
        if params.isEmpty {
            outcome = sendAndAwait { PQsendQuery($0, sql) }
        } else {
            var pointers: [UnsafeMutablePointer<CChar>?] = params.map { $0.map { strdup($0) } ?? nil }
            defer { pointers.forEach { free($0) } }
            outcome = pointers.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { values in
                    sendAndAwait { PQsendQueryParams($0, sql, Int32(params.count), nil, values, nil, nil, 0) }
                }
            }
        }
        switch outcome {
        case .finished(let result): return result
        case .timedOut: throw timedOut("running \(sql.prefix(60))… on \(target)")
        }
    }
}

/// What became of a transaction, as the server tells it afterwards (`PostgresConnection.commitStatus(ofTransaction:)`).
public enum PostgresCommitStatus: Sendable, Equatable {
    case committed, rolledBack, inProgress
}

/// Hands the server's notices to a closure (`PostgresConnection.init(url:connectTimeoutSeconds:notices:)`).
private final class NoticeSink {
    let deliver: @Sendable (String) -> Void

    init(_ deliver: @escaping @Sendable (String) -> Void) { self.deliver = deliver }

    func receive(_ message: UnsafePointer<CChar>) {
        var text = String(cString: message)
        while text.last?.isNewline == true { text.removeLast() }
        deliver(text)
    }
}

/// The rows of one result, read as text. Frees the result when dropped.
public final class PostgresRows {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) { self.result = result }
    deinit { PQclear(result) }

    public var count: Int { Int(PQntuples(result)) }

    /// The value at `row`, `column` as text; nil for NULL.
    public func text(_ row: Int, _ column: Int) -> String? {
        if PQgetisnull(result, Int32(row), Int32(column)) != 0 { return nil }
        return String(cString: PQgetvalue(result, Int32(row), Int32(column)))
    }

    public func int64(_ row: Int, _ column: Int) -> Int64 { text(row, column).flatMap { Int64($0) } ?? 0 }

    /// Rows affected by an INSERT, UPDATE or DELETE.
    public var affected: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }
}
