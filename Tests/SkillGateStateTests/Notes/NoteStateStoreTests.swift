import Foundation
import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateState

/// The notes answer alike on both state stores (decision 0122): per token name, the bound, the matching rules of a
/// search, ids never given again, deletion by id and token only. SQLite always, PostgreSQL when a test server is set.
@Suite struct NoteStateStoreTests {
    static let t0: Int64 = 1_800_000_000_000

    /// The same checks on any store.
    static func check(_ store: any NoteStateStore) throws {
        func save(_ token: String, _ text: String, title: String? = nil, max: Int = 100, at offset: Int64) throws -> StoredNote? {
            try store.saveNote(tokenName: token, title: title, text: text, maxNotes: max, at: Date(millisecondsSince1970: t0 + offset))
        }
        let plan = try #require(try save("app", "Buy MILK and bread", title: "Shopping", at: 0))
        let umlaut = try #require(try save("app", "Ärger mit der Straße", at: 1))
        let percent = try #require(try save("app", "a 100% sure_thing! done \\o/", at: 2))
        let other = try #require(try save("other", "milk for the other token", at: 3))
        #expect(plan.createdAt == Date(millisecondsSince1970: t0) && plan.title == "Shopping" && other.tokenName == "other")

        // Newest first; per token.
        #expect(try store.listNotes(tokenName: "app", limit: 10).map(\.id) == [percent.id, umlaut.id, plan.id])
        #expect(try store.listNotes(tokenName: "app", limit: 2).map(\.id) == [percent.id, umlaut.id])
        #expect(try store.listNotes(tokenName: "app", limit: 10).first == percent)
        #expect(try store.listNotes(tokenName: "nobody", limit: 10).isEmpty)

        // Every word, anywhere in the title or the text; ASCII letters in any case; another token's notes never.
        func found(_ words: [String], limit: Int = 10) throws -> [Int64] { try store.searchNotes(tokenName: "app", words: words, limit: limit).map(\.id) }
        #expect(try found(["milk"]) == [plan.id])
        #expect(try found(["MiLk", "BREAD"]) == [plan.id])
        #expect(try found(["shop"]) == [plan.id], "the title counts")
        #expect(try found(["milk", "ärger"]).isEmpty, "every word")
        // Other letters in any case too (simple case folding, decision 0124): "ä" finds "Ä"; "ß" is not "SS".
        #expect(try found(["Ärger"]) == [umlaut.id])
        #expect(try found(["ärger"]) == [umlaut.id])
        #expect(try found(["STRASSE"]).isEmpty)
        #expect(try found(["straße"]) == [umlaut.id])
        // LIKE's wildcards, the escape characters and punctuation are themselves.
        #expect(try found(["100%"]) == [percent.id])
        #expect(try found(["%"]) == [percent.id])
        #expect(try found(["_"]) == [percent.id])
        #expect(try found(["e_t"]) == [percent.id])
        #expect(try found(["e%t"]).isEmpty)
        #expect(try found(["a_1"]).isEmpty)
        #expect(try found(["!"]) == [percent.id])
        #expect(try found(["\\o/"]) == [percent.id])
        #expect(try found(["\\"]) == [percent.id])
        #expect(try found(["a"], limit: 2) == [percent.id, umlaut.id])
        // A word holding NUL finds nothing on either store (SQLite's LIKE stopped at it: "\0" found every note).
        #expect(try found(["\u{0}"]).isEmpty)
        #expect(try found(["bread\u{0}zz"]).isEmpty, "not read as a text ending in bread")

        // Deletion by id and token only: another token's id answers as an unknown one does, and its note stays.
        #expect(try store.deleteNote(tokenName: "app", id: other.id) == false)
        #expect(try store.deleteNote(tokenName: "app", id: other.id + 1_000) == false)
        #expect(try store.listNotes(tokenName: "other", limit: 10) == [other])
        // Ids are never given again, not even the highest after its delete.
        let last = try #require(try save("other", "second", at: 4))
        #expect(try store.deleteNote(tokenName: "other", id: last.id))
        #expect(try store.deleteNote(tokenName: "other", id: last.id) == false)
        let next = try #require(try save("other", "third", at: 5))
        #expect(next.id > last.id)

        // The bound: a save at it writes nothing; a delete makes room.
        #expect(try save("app", "fourth", max: 3, at: 6) == nil)
        #expect(try store.listNotes(tokenName: "app", limit: 10).count == 3)
        #expect(try store.deleteNote(tokenName: "app", id: umlaut.id))
        #expect(try save("app", "fourth", max: 3, at: 7) != nil)
        #expect(try save("fresh", "one", max: 1, at: 8) != nil)
        #expect(try save("fresh", "two", max: 1, at: 9) == nil)

        // Counts by name in byte order ("B" before "a"); deleting all of one name's notes leaves the others'.
        _ = try save("B-upper", "x", at: 10)
        #expect(try store.noteCounts().map { "\($0.tokenName)=\($0.count)" } == ["B-upper=1", "app=3", "fresh=1", "other=2"])
        #expect(try store.deleteNotes(tokenName: "app") == 3)
        #expect(try store.deleteNotes(tokenName: "app") == 0)
        #expect(try store.noteCounts().map(\.tokenName) == ["B-upper", "fresh", "other"])
    }

    /// Letters beyond ASCII in any case, alike on both stores (decision 0124): Latin with diacritics, Greek (final
    /// sigma too), Cyrillic, full-width Latin, the capital sharp s; Chinese (no case) as it is; in titles and texts.
    static func checkCaseFolding(_ store: any NoteStateStore) throws {
        func save(_ text: String, title: String? = nil, at offset: Int64) throws -> Int64 {
            try #require(try store.saveNote(tokenName: "intl", title: title, text: text, maxNotes: 100, at: Date(millisecondsSince1970: t0 + offset))).id
        }
        let german = try save("Über den Fluß zur STRAẞE", title: "Ärger", at: 0)
        let greek = try save("ΟΔΟΣ Αθηνάς", at: 1)
        let russian = try save("Встреча в Москве", title: "ДОМ", at: 2)
        let wide = try save("ＳｋｉｌｌＧａｔｅ メモ", at: 3)
        let chinese = try save("会议记录：明天上午十点", title: "项目", at: 4)
        _ = try store.saveNote(tokenName: "other", title: nil, text: "über москве", maxNotes: 100, at: Date(millisecondsSince1970: t0 + 5))
        func found(_ words: [String]) throws -> [Int64] { try store.searchNotes(tokenName: "intl", words: words, limit: 10).map(\.id) }
        #expect(try found(["über"]) == [german])
        #expect(try found(["ÜBER", "fluß"]) == [german])
        #expect(try found(["ärger"]) == [german], "the title is folded too")
        #expect(try found(["straße"]) == [german], "ẞ folds to ß")
        #expect(try found(["strasse"]).isEmpty, "simple folding: ß is not ss")
        #expect(try found(["οδος"]) == [greek], "final sigma folds as sigma")
        #expect(try found(["ΑΘΗΝΆΣ"]) == [greek])
        #expect(try found(["москве"]) == [russian])
        #expect(try found(["дом", "ВСТРЕЧА"]) == [russian])
        #expect(try found(["ｓｋｉｌｌｇａｔｅ"]) == [wide])
        #expect(try found(["ＳＫＩＬＬ"]) == [wide])
        #expect(try found(["skillgate"]).isEmpty, "full-width is not ASCII: case is folded, width is not")
        #expect(try found(["会议"]) == [chinese])
        #expect(try found(["项目", "十点"]) == [chinese])
        #expect(try found(["über", "москве"]).isEmpty, "every word; the other token's note never")
        #expect(try store.listNotes(tokenName: "intl", limit: 10).map(\.text).first == "会议记录：明天上午十点", "the note is kept as written")
        #expect(try store.listNotes(tokenName: "intl", limit: 10).last?.title == "Ärger")
        // LIKE's wildcards are themselves even when a combining mark follows them (one Character with it, but two
        // scalars to the database): SQLite escaped by Character, so "_\u{301}" matched any accented letter there.
        let cafe = try save("cafe\u{301} au lait", at: 6)
        #expect(try found(["cafe\u{301}"]) == [cafe])
        #expect(try found(["_\u{301}"]).isEmpty)
        #expect(try found(["%\u{301}"]).isEmpty)
    }

    @Test func sqliteCaseFolding() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-notes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.checkCaseFolding(try SQLiteStateStore(stateDirectory: dir))
    }

    @Test(.enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
    func postgresCaseFolding() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            try Self.checkCaseFolding(try PostgresStateStore(url: db.url))
        }
    }

    @Test func sqliteNotes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-notes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.check(try SQLiteStateStore(stateDirectory: dir))
    }

    @Test(.enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
    func postgresNotes() async throws {
        try await offThePool {
            let db = try PostgresTestDatabase()
            defer { db.drop() }
            try Self.check(try PostgresStateStore(url: db.url))
        }
    }
}
