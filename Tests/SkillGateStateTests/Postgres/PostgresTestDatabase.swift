import Foundation
@testable import SkillGateState
import Testing

/// A fresh database on the test PostgreSQL (`SKILLGATE_POSTGRES_URL`, started by scripts/test.sh through
/// scripts/postgres-test.sh), dropped by `drop()`.
struct PostgresTestDatabase {
    static let adminURL = ProcessInfo.processInfo.environment["SKILLGATE_POSTGRES_URL"]
    static let skipMessage: Comment = "set SKILLGATE_POSTGRES_URL to a PostgreSQL admin URL (scripts/postgres-test.sh start PORT DIR prints one; scripts/test.sh does it) to run the PostgreSQL tests"
    let name: String
    let url: String

    init() throws {
        guard let admin = Self.adminURL else { throw PostgresError(message: "SKILLGATE_POSTGRES_URL is not set", context: "test setup") }
        name = "sg_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        try PostgresConnection(url: admin).execute("CREATE DATABASE \(name)")
        url = String(admin[..<admin.lastIndex(of: "/")!]) + "/" + name
    }

    func drop() {
        try? PostgresConnection(url: Self.adminURL!).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}
