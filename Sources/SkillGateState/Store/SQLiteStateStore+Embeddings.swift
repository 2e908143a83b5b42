import FoundationEssentials
import Glibc
import Dispatch

/// One cached embedding vector of the state store.
public struct StoredEmbedding: Sendable, Hashable {
    /// A hash of what the vector is the vector of (the caller's content key, e.g. SHA-256 hex).
    public var key: String
    /// The embedder that made it (for housekeeping: `deleteEmbeddings(embedder:)`).
    public var embedder: String
    public var vector: [Float]

    public init(key: String, embedder: String, vector: [Float]) {
        self.key = key
        self.embedder = embedder
        self.vector = vector
    }
}

extension SQLiteStateStore {
    /// The most vectors the table keeps; past it the oldest are deleted (clients declaring ever-new
    /// tool descriptions cannot grow the file without limit: 50,000 × 384 floats ≈ 77 MB).
    public static let embeddingCapacity = 50_000

    /// The stored vectors of `keys`, by key (keys without one are absent).
    public func embeddings(keys: [String]) throws -> [String: [Float]] {
        guard !keys.isEmpty else { return [:] }
        var out: [String: [Float]] = [:]
        try withConnection { db in
            let rows = try db.rows("SELECT key, dimensions, vector FROM embedding_cache WHERE key IN", keys: keys) { row in
                (row.text(0), Int(row.int64(1)), row.blob(2) ?? [])
            }
            for (key, dimensions, blob) in rows {
                if let vector = Self.floats(blob), vector.count == dimensions { out[key] = vector }
            }
        }
        return out
    }

    /// Stores `entries` (replacing vectors under the same key) in one transaction, then trims the
    /// table to `capacity` rows, oldest first.
    public func saveEmbeddings(_ entries: [StoredEmbedding], at date: Date = Date(), capacity: Int = embeddingCapacity) throws {
        guard !entries.isEmpty else { return }
        let created = Int64((date.timeIntervalSince1970 * 1000).rounded())
        try withWriteTransaction { db in
            let insert = try db.statement("INSERT OR REPLACE INTO embedding_cache (key, embedder, dimensions, vector, created_at) VALUES (?, ?, ?, ?, ?)")
            for e in entries {
                try insert.run([.text(e.key), .text(e.embedder), .int(e.vector.count), .blob(Self.bytes(e.vector)), .integer(created)])
            }
            try db.statement("DELETE FROM embedding_cache WHERE key IN (SELECT key FROM embedding_cache ORDER BY created_at DESC LIMIT -1 OFFSET ?)")
                .run([.int(capacity)])
        }
    }

    /// Deletes the vectors of `embedder` (after switching models, to reclaim the space); returns how many.
    @discardableResult
    public func deleteEmbeddings(embedder: String) throws -> Int {
        try withWriteTransaction { db in try db.statement("DELETE FROM embedding_cache WHERE embedder = ?").run([.text(embedder)]) }
    }

    /// How many vectors are stored.
    public func embeddingCount() throws -> Int {
        try withConnection { db in Int(try db.statement("SELECT count(*) FROM embedding_cache").firstRow { $0.int64(0) } ?? 0) }
    }

    /// `vector` as little-endian Float32 bytes.
    static func bytes(_ vector: [Float]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(vector.count * 4)
        for f in vector {
            let bits = f.bitPattern.littleEndian
            out.append(UInt8(truncatingIfNeeded: bits))
            out.append(UInt8(truncatingIfNeeded: bits >> 8))
            out.append(UInt8(truncatingIfNeeded: bits >> 16))
            out.append(UInt8(truncatingIfNeeded: bits >> 24))
        }
        return out
    }

    /// Little-endian Float32 bytes as floats; `nil` when the length is not a multiple of 4.
    static func floats(_ bytes: [UInt8]) -> [Float]? {
        guard bytes.count % 4 == 0 else { return nil }
        var out = [Float]()
        out.reserveCapacity(bytes.count / 4)
        var i = 0
        while i < bytes.count {
            let bits = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
            out.append(Float(bitPattern: bits))
            i += 4
        }
        return out
    }
}
