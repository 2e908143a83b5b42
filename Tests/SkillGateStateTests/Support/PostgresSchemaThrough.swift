import SkillGateTestSupport
@testable import SkillGateState

extension PostgresTestDatabase {
    /// A connection to this database with the schema an older gateway left: the first `steps` of `PostgresSchema.steps`
    /// run and recorded, as `PostgresStateStore` records them, for a test to put that gateway's rows in before a new
    /// store migrates them.
    func connection(schemaThrough steps: Int) throws -> PostgresConnection {
        let c = try PostgresConnection(url: url)
        try c.execute("CREATE TABLE skillgate_schema (version INTEGER NOT NULL)")
        for step in PostgresSchema.steps.prefix(steps) { try c.execute(step) }
        try c.execute("INSERT INTO skillgate_schema (version) VALUES (\(steps))")
        return c
    }
}
