import Foundation
import SkillGateTestSupport
import Testing
@testable import SkillGateState

@Suite struct SQLiteConnectionTests {
    @Test func bindsAndReadsEveryValueType() throws {
        try withTemporaryDirectory { dir in
            let db = try SQLiteConnection(path: dir + "/t.sqlite")
            try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
            let text = "héllo 😀 \u{0}after-nul"
            try db.statement("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
                .run([.integer(Int64.max), .real(2.5), .text(text), .blob([0, 1, 255]), .null])
            try db.statement("INSERT INTO t VALUES (?, ?, ?, ?, ?)").run([.integer(-1), .real(0), .text(""), .blob([]), .text("x")])
            let rows = try db.statement("SELECT i, r, s, b, n FROM t ORDER BY rowid").rows { row in
                (row.int64(0), row.double(1), row.optionalText(2), row.blob(3), row.optionalText(4))
            }
            #expect(rows.count == 2)
            #expect(rows[0].0 == Int64.max && rows[0].1 == 2.5 && rows[0].2 == text && rows[0].3 == [0, 1, 255] && rows[0].4 == nil)
            #expect(rows[1].2 == "" && rows[1].3 == [] && rows[1].4 == "x", "empty text and blob are not NULL")
        }
    }

    /// `runInPlace` (text and blobs bound where they are, not copied) stores what `run` stores, `.utf8` bytes as
    /// TEXT like `.text`; the statement runs again with other values, also after a failed run.
    @Test(arguments: [false, true])
    func bindsInPlaceAsRunDoes(inPlace: Bool) throws {
        try withTemporaryDirectory { dir in
            let db = try SQLiteConnection(path: dir + "/t.sqlite")
            try db.execute("CREATE TABLE t (k TEXT PRIMARY KEY, s TEXT, u TEXT, b BLOB, i INTEGER)")
            let text = "héllo 😀 \u{0}after-nul"
            let insert = try db.statement("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
            func run(_ values: [SQLiteValue]) throws { if inPlace { try insert.runInPlace(values) } else { try insert.run(values) } }
            try run([.text("a"), .text(text), .utf8(Array(text.utf8)), .blob([0, 1, 255]), .integer(7)])
            try run([.text("b"), .text(""), .utf8([]), .blob([]), .null])
            #expect(throws: SQLiteError.self) { try run([.text("a"), .text("dup"), .utf8(Array("dup".utf8)), .blob([1]), .integer(1)]) }
            try run([.text("c"), .null, .utf8(Array("ü".utf8)), .null, .integer(-1)])
            let rows = try db.statement("SELECT k, s, u, b, i, typeof(u) FROM t ORDER BY rowid").rows { row in
                (row.text(0), row.optionalText(1), row.utf8(2), row.blob(3), row.optionalInt64(4), row.text(5))
            }
            #expect(rows.count == 3)
            #expect(rows[0].1 == text && rows[0].2 == Array(text.utf8) && rows[0].3 == [0, 1, 255] && rows[0].4 == 7 && rows[0].5 == "text")
            #expect(rows[1].1 == "" && rows[1].2 == [] && rows[1].3 == [] && rows[1].4 == nil && rows[1].5 == "text", "empty text and blob are not NULL")
            #expect(rows[2].0 == "c" && rows[2].1 == nil && rows[2].2 == Array("ü".utf8) && rows[2].3 == nil && rows[2].4 == -1)
        }
    }

    @Test func errorsSayWhatFailedAndWhatToDo() throws {
        try withTemporaryDirectory { dir in
            let db = try SQLiteConnection(path: dir + "/t.sqlite")
            let error = #expect(throws: SQLiteError.self) { try db.prepare("SELECT * FROM missing_table") }
            #expect(error?.description.contains("no such table: missing_table") == true)
            #expect(error?.description.contains("preparing: SELECT * FROM missing_table") == true)

            try db.execute("CREATE TABLE u (name TEXT UNIQUE)")
            try db.statement("INSERT INTO u VALUES (?)").run([.text("a")])
            let dup = #expect(throws: SQLiteError.self) { try db.statement("INSERT INTO u VALUES (?)").run([.text("a")]) }
            #expect(dup?.isConstraintViolation == true)
            #expect(dup?.description.contains("uniqueness") == true)
        }
    }

    @Test func transactionsRollBackOnError() throws {
        try withTemporaryDirectory { dir in
            let db = try SQLiteConnection(path: dir + "/t.sqlite")
            try db.execute("CREATE TABLE t (x INTEGER)")
            struct Boom: Error {}
            #expect(throws: Boom.self) {
                try db.transaction {
                    try db.statement("INSERT INTO t VALUES (1)").run()
                    throw Boom()
                }
            }
            #expect(try db.statement("SELECT count(*) FROM t").firstRow { $0.int64(0) } == 0)
        }
    }

    @Test func migrationsAreIdempotentAndAppendOnly() throws {
        try withTemporaryDirectory { dir in
            let db = try SQLiteConnection(path: dir + "/t.sqlite")
            let steps = ["CREATE TABLE a (x INTEGER)", "CREATE TABLE b (y INTEGER); INSERT INTO b VALUES (7)"]
            #expect(try db.migrate(steps) == (0, 2))
            #expect(try db.migrate(steps) == (2, 2))
            #expect(try db.userVersion() == 2)
            #expect(try db.statement("SELECT count(*) FROM b").firstRow { $0.int64(0) } == 1, "steps ran once")
            #expect(try db.migrate(steps + ["ALTER TABLE a ADD COLUMN z TEXT"]) == (2, 3))
            #expect(try db.userVersion() == 3)
        }
    }

    @Test func aFailedMigrationStepLeavesTheDatabaseAsItWas() throws {
        try withTemporaryDirectory { dir in
            let db = try SQLiteConnection(path: dir + "/t.sqlite")
            try db.migrate(["CREATE TABLE a (x INTEGER)"])
            #expect(throws: SQLiteError.self) {
                try db.migrate(["CREATE TABLE a (x INTEGER)", "CREATE TABLE b (y INTEGER); CREATE TABLE broken ("])
            }
            #expect(try db.userVersion() == 1)
            #expect(throws: SQLiteError.self) { try db.prepare("SELECT * FROM b") }
        }
    }

    @Test func refusesASchemaNewerThanItKnows() throws {
        try withTemporaryDirectory { dir in
            let db = try SQLiteConnection(path: dir + "/t.sqlite")
            try db.execute("PRAGMA user_version = 5")
            let error = #expect(throws: SQLiteError.self) { try db.migrate(["CREATE TABLE a (x INTEGER)"]) }
            #expect(error?.description.contains("upgrade SkillGate") == true)
        }
    }
}
