import Foundation
import Testing
import Synchronization
import SkillGateCore
import SkillGateState
import SkillGateProviders
@testable import SkillGateServer

/// The archive answers from memory until its writer has stored an answer, then from the store; a store
/// that fails keeps answers pending (and still readable) until a write succeeds.
@Suite struct ResponseArchiveTests {
    /// A store that fails while `failing` is set, else forwards to SQLite.
    final class FlakyStore: ResponseStore {
        let inner: SQLiteStateStore
        let failing = Mutex(true)
        let writes = Mutex(0)
        init(_ inner: SQLiteStateStore) { self.inner = inner }
        func saveResponses(_ responses: [StoredResponse], now: Date) throws {
            if failing.withLock({ $0 }) { throw SQLiteError(code: 10, message: "disk I/O error", context: "test") }
            writes.withLock { $0 += 1 }
            try inner.saveResponses(responses, now: now)
        }
        func storedResponse(id: String, tokenId: String, now: Date) throws -> StoredResponse? {
            try inner.storedResponse(id: id, tokenId: tokenId, now: now)
        }
    }

    static let conversation = [Message(role: .user, text: "Remember 7."), Message(role: .assistant, text: "Noted.")]
    static let stored = OpenAIResponsesFormat.conversationJSON(conversation)

    @Test func answersAreReadableAtOnceAndStoredByTheWriter() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-archive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sqlite = try SQLiteStateStore(stateDirectory: dir)
        let store = FlakyStore(sqlite)
        let warnings = Mutex<[String]>([])
        let archive = ResponseArchive(store: store, retention: 1, flushInterval: .milliseconds(20), now: { Date() }) { w in warnings.withLock { $0.append(w) } }
        archive.save(id: "resp_1", tokenId: "tok_a", conversation: Self.stored)
        #expect(try await archive.conversation(id: "resp_1", tokenId: "tok_a") == ResponsesHistory(messages: Self.conversation, itemsJSON: Self.stored))
        await #expect(throws: GatewayError.self) { try await archive.conversation(id: "resp_1", tokenId: "tok_b") }

        // Wait (bounded) for the writer's first failed attempt: the answer stays pending and readable.
        let deadline = ContinuousClock.now + .seconds(10)
        while warnings.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try sqlite.storedResponse(id: "resp_1", tokenId: "tok_a", now: Date()) == nil)
        #expect(try await archive.conversation(id: "resp_1", tokenId: "tok_a") == ResponsesHistory(messages: Self.conversation, itemsJSON: Self.stored))
        #expect(warnings.withLock { $0.first?.contains("could not be stored yet") } == true)

        store.failing.withLock { $0 = false }
        archive.close()  // writes what is pending
        #expect(try sqlite.storedResponse(id: "resp_1", tokenId: "tok_a", now: Date())?.tokenId == "tok_a")
        #expect(try await archive.conversation(id: "resp_1", tokenId: "tok_a") == ResponsesHistory(messages: Self.conversation, itemsJSON: Self.stored))
        #expect(store.writes.withLock { $0 } >= 1)
    }

    @Test func zeroRetentionKeepsNothing() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-archive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let archive = ResponseArchive(store: try SQLiteStateStore(stateDirectory: dir), retention: 0, now: { Date() }) { _ in }
        archive.save(id: "resp_1", tokenId: "tok_a", conversation: Self.stored)
        await #expect(throws: GatewayError.self) { try await archive.conversation(id: "resp_1", tokenId: "tok_a") }
        archive.close()
    }
}
