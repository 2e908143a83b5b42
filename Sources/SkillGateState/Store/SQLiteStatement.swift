import CSQLite

/// A prepared statement. Bind parameters (1-based), `step` through the rows, read columns (0-based).
///
/// Not `Sendable`: use it only on the thread (or under the lock) that owns its connection.
public final class SQLiteStatement {
    let handle: OpaquePointer
    /// The SQL text, for error messages.
    public let sql: String

    /// The connection closes with `sqlite3_close_v2`, which waits for its statements to be
    /// finalized, so a statement may outlive its `SQLiteConnection` object safely.
    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to parameters 1, 2, ...
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        reset()
        sqlite3_clear_bindings(handle)
        for (i, value) in values.enumerated() { try bind(value, at: Int32(i + 1)) }
    }

    /// Binds `value` to the 1-based parameter `index`.
    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v):
            let count = Int32(v.utf8.count)
            rc = v.withCString { sg_sqlite3_bind_text_transient(handle, index, $0, count) }
        case .utf8(let v):
            rc = v.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    // A nil pointer would bind NULL; empty text needs a real (zero-length) pointer.
                    guard let base = chars.baseAddress else { return sg_sqlite3_bind_text_transient(handle, index, "", 0) }
                    return sg_sqlite3_bind_text_transient(handle, index, base, Int32(chars.count))
                }
            }
        case .blob(let v):
            rc = v.withUnsafeBytes { raw in
                // A nil pointer would bind NULL; an empty blob needs a real (zero-length) pointer.
                raw.baseAddress.map { sg_sqlite3_bind_blob_transient(handle, index, $0, Int32(raw.count)) }
                    ?? sqlite3_bind_zeroblob(handle, index, 0)
            }
        }
        guard rc == SQLITE_OK else { throw error(rc, "binding parameter \(index) of: \(sql)") }
    }

    /// Advances to the next row. Returns true when a row is ready, false when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw error(rc, "running: \(sql)")
        }
    }

    /// Makes the statement ready to run again (bindings are kept).
    public func reset() { sqlite3_reset(handle) }

    /// Binds `values`, runs to completion, and resets. Returns the number of rows changed.
    @discardableResult
    public func run(_ values: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        try bind(values)
        defer { reset() }
        while try step() {}
        return Int(sqlite3_changes(sqlite3_db_handle(handle)))
    }

    /// `run`, but text and non-empty blobs are bound in place (SQLite reads the caller's bytes instead of copying
    /// them first: for large values written in a loop). The bindings are cleared before it returns, as
    /// SQLite must not keep the pointers.
    @discardableResult
    public func runInPlace(_ values: [SQLiteValue]) throws(SQLiteError) -> Int {
        reset()
        defer {
            reset()
            sqlite3_clear_bindings(handle)
        }
        return try bindInPlace(values, from: 0)
    }

    /// Binds `values[i...]` (the large ones inside the scope where their bytes stay valid), then runs.
    private func bindInPlace(_ values: [SQLiteValue], from i: Int) throws(SQLiteError) -> Int {
        guard i < values.count else {
            while try step() {}
            return Int(sqlite3_changes(sqlite3_db_handle(handle)))
        }
        let index = Int32(i + 1)
        let bytes: [UInt8], isText: Bool
        switch values[i] {
        case .text(let v):
            let count = Int32(v.utf8.count)
            return try v.withCString { text in
                Result { () throws(SQLiteError) -> Int in
                    let rc = sqlite3_bind_text(handle, index, text, count, nil)
                    guard rc == SQLITE_OK else { throw error(rc, "binding parameter \(index) of: \(sql)") }
                    return try bindInPlace(values, from: i + 1)
                }
            }.get()
        case .utf8(let v) where !v.isEmpty: (bytes, isText) = (v, true)
        case .blob(let v) where !v.isEmpty: (bytes, isText) = (v, false)
        case let other:
            try bind(other, at: index)
            return try bindInPlace(values, from: i + 1)
        }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(SQLiteError) -> Int in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            // A nil destructor is SQLITE_STATIC: SQLite uses the bytes where they are until the bindings change.
            let rc = isText ? sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(buffer.count), nil)
                : sqlite3_bind_blob(handle, index, base, Int32(buffer.count), nil)
            guard rc == SQLITE_OK else { throw error(rc, "binding parameter \(index) of: \(sql)") }
            return try bindInPlace(values, from: i + 1)
        }
    }

    /// Binds `values` and maps every result row with `transform`, then resets.
    public func rows<T>(_ values: [SQLiteValue] = [], _ transform: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> [T] {
        try bind(values)
        defer { reset() }
        var out: [T] = []
        while try step() { out.append(try transform(self)) }
        return out
    }

    /// The first row mapped with `transform`, or nil when there is none.
    public func firstRow<T>(_ values: [SQLiteValue] = [], _ transform: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> T? {
        try bind(values)
        defer { reset() }
        return try step() ? transform(self) : nil
    }

    // MARK: Columns (0-based)

    /// Whether column `index` of the current row is NULL.
    public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` as an integer (0 for NULL).
    public func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` as an integer, nil for NULL.
    public func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }

    /// Column `index` as a double (0 for NULL).
    public func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Column `index` as text ("" for NULL).
    public func text(_ index: Int32) -> String { optionalText(index) ?? "" }

    /// Column `index` as text, nil for NULL.
    public func optionalText(_ index: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Column `index` as the UTF-8 bytes of its text ([] for NULL), without making a `String`.
    public func utf8(_ index: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_text(handle, index) else { return [] }
        return Array(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, index))))
    }

    /// Column `index` as bytes, nil for NULL.
    public func blob(_ index: Int32) -> [UInt8]? {
        if isNull(index) { return nil }
        guard let pointer = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    private func error(_ rc: Int32, _ context: String) -> SQLiteError {
        let db = sqlite3_db_handle(handle)
        let code = db.map { sqlite3_extended_errcode($0) } ?? rc
        let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
        return SQLiteError(code: code, message: message, context: context)
    }
}
