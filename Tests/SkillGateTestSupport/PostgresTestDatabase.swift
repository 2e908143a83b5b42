import Foundation
import SkillGateState

/// A fresh database on the test PostgreSQL (`SKILLGATE_POSTGRES_URL`, started by scripts/test.sh through
/// scripts/postgres-test.sh), dropped by `drop()`. Shared by the state store's and the gateway's tests.
public struct PostgresTestDatabase: Sendable {
    public static let adminURL = ProcessInfo.processInfo.environment["SKILLGATE_POSTGRES_URL"]
    /// Why the PostgreSQL tests skip (for `.enabled(if:_:)`).
    public static let skipReason = "set SKILLGATE_POSTGRES_URL to a PostgreSQL admin URL (scripts/postgres-test.sh start PORT DIR prints one; scripts/test.sh does it) to run the PostgreSQL tests"
    public let name: String
    public let url: String

    struct NotConfigured: Error, CustomStringConvertible {
        var description: String { PostgresTestDatabase.skipReason }
    }

    public init() throws {
        guard let admin = Self.adminURL else { throw NotConfigured() }
        name = "sg_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        try PostgresConnection(url: admin).execute("CREATE DATABASE \(name)")
        url = String(admin[..<admin.lastIndex(of: "/")!]) + "/" + name
    }

    public func drop() {
        try? PostgresConnection(url: Self.adminURL!).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}
