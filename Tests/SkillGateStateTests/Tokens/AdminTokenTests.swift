import Foundation
import SkillGateTestSupport
import Testing
@testable import SkillGateState

/// Admin tokens (decision 0030): the `admin` and `chat` flags are stored and read back; tokens from before the
/// migration stay ordinary chat tokens.
@Suite struct AdminTokenTests {
    @Test(arguments: [(admin: false, chat: false), (admin: true, chat: false), (admin: true, chat: true)])
    func theFlagsRoundTripThroughSQLite(_ flags: (admin: Bool, chat: Bool)) throws {
        try withTemporaryDirectory { dir in
            let service = TokenService(store: try SQLiteStateStore(stateDirectory: dir))
            let (text, record) = try service.create(name: "console", admin: flags.admin, chat: flags.chat)
            // An ordinary token may always chat, whatever `chat` says.
            let expectedChat = flags.admin ? flags.chat : true
            #expect(record.admin == flags.admin && record.chat == expectedChat)
            let reopened = TokenService(store: try SQLiteStateStore(stateDirectory: dir))
            let found = try #require(reopened.authenticate(text))
            #expect(found.admin == flags.admin && found.chat == expectedChat)
            #expect(try reopened.list().first.map { [$0.admin, $0.chat] } == [flags.admin, expectedChat])
        }
    }

    @Test func aTokenFromBeforeTheMigrationIsAnOrdinaryChatToken() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/state.sqlite"
            do {
                let db = try SQLiteConnection(path: path)
                try db.migrate(Array(StateSchema.steps.prefix(4)))
                try db.execute("INSERT INTO client_tokens (id, name, token_hash, created_at) VALUES ('tok_0000000000000001', 'old-app', '\(String(repeating: "a", count: 64))', 1)")
            }
            let store = try SQLiteStateStore(stateDirectory: dir)
            let old = try #require(try store.tokens().first)
            #expect(old.name == "old-app" && !old.admin && old.chat)
            #expect(try SQLiteConnection(path: path).userVersion() == StateSchema.steps.count)
        }
    }
}
