extension SQLiteConnection {
    /// The rows of `select` (`SELECT ... FROM ... WHERE key IN`, without the list) for `keys`, in
    /// chunks: SQLite limits the number of parameters of one statement.
    func rows<T>(_ select: String, keys: [String], _ transform: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> [T] {
        var out: [T] = []
        for start in stride(from: 0, to: keys.count, by: 256) {
            let chunk = Array(keys[start..<min(start + 256, keys.count)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            out += try prepare("\(select) (\(marks))").rows(chunk.map(SQLiteValue.text), transform)
        }
        return out
    }
}
