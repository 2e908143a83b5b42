import FoundationEssentials
import SkillGateCore

/// Example requests of one skill, as the state store keeps them (`skill_ranking.examples`).
public struct StoredSkillExamples: Sendable, Hashable {
    /// A hash of what they are the examples of (the writing model and the skill's text).
    public var key: String
    /// The model that wrote them, for housekeeping.
    public var model: String
    public var examples: [String]

    public init(key: String, model: String, examples: [String]) {
        self.key = key
        self.model = model
        self.examples = examples
    }
}

extension SQLiteStateStore {
    /// The most skills whose examples the table keeps; past it the oldest are deleted.
    public static let skillExamplesCapacity = 20_000

    /// The stored examples of `keys`, by key (keys without any are absent).
    public func skillExamples(keys: [String]) throws -> [String: [String]] {
        guard !keys.isEmpty else { return [:] }
        var out: [String: [String]] = [:]
        try withConnection { db in
            for (key, text) in try db.rows("SELECT key, examples FROM skill_examples WHERE key IN", keys: keys, { ($0.text(0), $0.text(1)) }) {
                guard let list = (try? JSONValue.parse(Array(text.utf8)))?.arrayValue else { continue }
                out[key] = list.compactMap(\.stringValue)
            }
        }
        return out
    }

    /// Stores `entries` (replacing examples under the same key) in one transaction, then trims the
    /// table to `capacity` rows, oldest first.
    public func saveSkillExamples(_ entries: [StoredSkillExamples], at date: Date = Date(), capacity: Int = skillExamplesCapacity) throws {
        guard !entries.isEmpty else { return }
        let created = Int64((date.timeIntervalSince1970 * 1000).rounded())
        try withWriteTransaction { db in
            let insert = try db.statement("INSERT OR REPLACE INTO skill_examples (key, model, examples, created_at) VALUES (?, ?, ?, ?)")
            for e in entries {
                let json = String(decoding: JSONValue.array(e.examples.map(JSONValue.string)).serializedBytes(), as: UTF8.self)
                try insert.run([.text(e.key), .text(e.model), .text(json), .integer(created)])
            }
            try db.statement("DELETE FROM skill_examples WHERE key IN (SELECT key FROM skill_examples ORDER BY created_at DESC LIMIT -1 OFFSET ?)")
                .run([.int(capacity)])
        }
    }

    /// How many skills have stored examples.
    public func skillExampleCount() throws -> Int {
        try withConnection { db in Int(try db.statement("SELECT count(*) FROM skill_examples").firstRow { $0.int64(0) } ?? 0) }
    }
}
