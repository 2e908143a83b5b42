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
    /// A store that fails while `failing` is set, else forwards to SQLite; counts the writes tried and those that worked.
    final class FlakyStore: ResponseStore {
        let inner: SQLiteStateStore
        let failing = Mutex(true)
        let attempts = Mutex(0)
        let writes = Mutex(0)
        /// Whether `storedResponse` fails (apart from `failing`, which the writes' tests set while reading from memory).
        let failingConversationReads = Mutex(false)
        init(_ inner: SQLiteStateStore) { self.inner = inner }
        func saveResponses(_ responses: [StoredResponse], now: Date, maxBytesPerToken: Int) throws -> [String: Int] {
            attempts.locked { $0 += 1 }
            if failing.locked({ $0 }) { throw SQLiteError(code: 10, message: "disk I/O error", context: "test") }
            writes.locked { $0 += 1 }
            return try inner.saveResponses(responses, now: now, maxBytesPerToken: maxBytesPerToken)
        }
        func storedResponse(id: String, tokenId: String, now: Date) throws -> StoredResponse? {
            if failingConversationReads.locked({ $0 }) { throw SQLiteError(code: 10, message: "disk I/O error", context: "test") }
            return try inner.storedResponse(id: id, tokenId: tokenId, now: now)
        }
        func storedResponseObject(id: String, tokenId: String, now: Date) throws -> StoredResponseObject {
            if failing.locked({ $0 }) { throw SQLiteError(code: 10, message: "disk I/O error", context: "test") }
            return try inner.storedResponseObject(id: id, tokenId: tokenId, now: now)
        }
        func deleteResponse(id: String, tokenId: String) throws -> Bool {
            if failing.locked({ $0 }) { throw SQLiteError(code: 10, message: "disk I/O error", context: "test") }
            return try inner.deleteResponse(id: id, tokenId: tokenId)
        }
    }

    /// `GET /v1/responses/{id}`'s lookup (decision 0125): the object from memory while pending, from the store once
    /// written; another token's is a 404; a store that cannot be read is a 503 to retry, never a 404.
    @Test func anObjectIsReadPendingAndStoredAndAFailingStoreIs503() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-archive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = FlakyStore(try SQLiteStateStore(stateDirectory: dir))
        store.failing.locked { $0 = false }
        let archive = ResponseArchive(store: store, retention: 1, flushInterval: .milliseconds(20), now: { Date() }) { _ in }
        let object = Array(#"{"id":"resp_1","object":"response"}"#.utf8)
        archive.save(id: "resp_1", tokenId: "tok_a", conversation: Self.stored, object: object)
        #expect(try await archive.object(id: "resp_1", tokenId: "tok_a") == object)
        await #expect(throws: GatewayError.self) { try await archive.object(id: "resp_1", tokenId: "tok_b") }
        await archive.flushOffThePool()
        #expect(try store.inner.storedResponseObject(id: "resp_1", tokenId: "tok_a", now: Date()) == .found(object))
        #expect(try await archive.object(id: "resp_1", tokenId: "tok_a") == object)
        store.failing.locked { $0 = true }
        do {
            _ = try await archive.object(id: "resp_1", tokenId: "tok_a")
            Issue.record("a failing store answered")
        } catch let error as GatewayError {
            #expect(error.status == 503 && error.retryAfter == 2 && error.message.contains("retry in a few seconds"), "\(error)")
        }
        store.failing.locked { $0 = false }
        await archive.closeOffThePool()
    }

    /// `GET /v1/responses/{id}/input_items`' lookup (decision 0127): the input's items from memory while pending, from
    /// the store once written; another token's is a 404; a store that cannot be read is a 503 that says what it was for.
    @Test func inputItemsAreReadPendingAndStoredAndAFailingStoreIs503() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-archive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = FlakyStore(try SQLiteStateStore(stateDirectory: dir))
        store.failing.locked { $0 = false }
        let archive = ResponseArchive(store: store, retention: 1, flushInterval: .milliseconds(20), now: { Date() }) { _ in }
        var writer = ResponsesItemsWriter()
        writer.append(Self.conversation[0])
        let inputEnd = writer.byteCount
        writer.append(Self.conversation[1])
        archive.save(id: "resp_1", tokenId: "tok_a", conversation: writer.finish(), object: Array("{}".utf8), inputEnd: inputEnd)
        let input = OpenAIResponsesFormat.conversationJSON(Self.conversation.prefix(1))
        #expect(try await archive.inputItems(id: "resp_1", tokenId: "tok_a") == input)
        await #expect(throws: GatewayError.self) { try await archive.inputItems(id: "resp_1", tokenId: "tok_b") }
        await archive.flushOffThePool()
        #expect(try await archive.inputItems(id: "resp_1", tokenId: "tok_a") == input)
        store.failingConversationReads.locked { $0 = true }
        do {
            _ = try await archive.inputItems(id: "resp_1", tokenId: "tok_a")
            Issue.record("a failing store answered")
        } catch let error as GatewayError {
            #expect(error.status == 503 && error.retryAfter == 2 && error.message.contains("to list the input items of response 'resp_1'"), "\(error)")
        }
        await archive.closeOffThePool()
    }

    static let conversation = [Message(role: .user, text: "Remember 7."), Message(role: .assistant, text: "Noted.")]
    static let stored = OpenAIResponsesFormat.conversationJSON(conversation)

    @Test func answersAreReadableAtOnceAndStoredByTheWriter() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-archive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sqlite = try SQLiteStateStore(stateDirectory: dir)
        let store = FlakyStore(sqlite)
        let warnings = Mutex<[String]>([])
        let archive = ResponseArchive(store: store, retention: 1, flushInterval: .milliseconds(20), now: { Date() }) { w in warnings.locked { $0.append(w) } }
        archive.save(id: "resp_1", tokenId: "tok_a", conversation: Self.stored)
        #expect(try await archive.conversation(id: "resp_1", tokenId: "tok_a") == ResponsesHistory(messages: Self.conversation, itemsJSON: Self.stored))
        await #expect(throws: GatewayError.self) { try await archive.conversation(id: "resp_1", tokenId: "tok_b") }

        // Wait (bounded) for the writer's first failed attempt: the answer stays pending and readable.
        let deadline = ContinuousClock.now + .seconds(10)
        while warnings.locked({ $0.isEmpty }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try sqlite.storedResponse(id: "resp_1", tokenId: "tok_a", now: Date()) == nil)
        #expect(try await archive.conversation(id: "resp_1", tokenId: "tok_a") == ResponsesHistory(messages: Self.conversation, itemsJSON: Self.stored))
        #expect(warnings.locked { $0.first?.contains("could not be stored yet") } == true)

        store.failing.locked { $0 = false }
        await archive.closeOffThePool()  // writes what is pending
        #expect(try sqlite.storedResponse(id: "resp_1", tokenId: "tok_a", now: Date())?.tokenId == "tok_a")
        #expect(try await archive.conversation(id: "resp_1", tokenId: "tok_a") == ResponsesHistory(messages: Self.conversation, itemsJSON: Self.stored))
        #expect(store.writes.locked { $0 } >= 1)
        // A write of one answer stays on the writer's own thread.
        #expect(archive.catchUps == 0)
    }

    /// A write of `catchUpResponses` answers or more means the low-priority writer is behind (decision 0060): it runs
    /// on the catch-up lane, and every answer is stored.
    @Test func aBacklogIsWrittenOnTheCatchUpLane() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-archive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sqlite = try SQLiteStateStore(stateDirectory: dir)
        // A long interval, so every answer saved below waits for the writer's first write.
        let archive = ResponseArchive(store: sqlite, retention: 1, flushInterval: .seconds(1), now: { Date() }) { _ in }
        let count = ResponseArchive.catchUpResponses + 50
        for i in 0..<count { archive.save(id: "resp_\(i)", tokenId: "tok_a", conversation: Self.stored) }
        let deadline = ContinuousClock.now + .seconds(10)
        while archive.catchUps == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(archive.catchUps == 1)
        await archive.closeOffThePool()
        for i in [0, count / 2, count - 1] {
            #expect(try sqlite.storedResponse(id: "resp_\(i)", tokenId: "tok_a", now: Date())?.tokenId == "tok_a")
        }
    }

    @Test func zeroRetentionKeepsNothing() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-archive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let archive = ResponseArchive(store: try SQLiteStateStore(stateDirectory: dir), retention: 0, now: { Date() }) { _ in }
        archive.save(id: "resp_1", tokenId: "tok_a", conversation: Self.stored)
        await #expect(throws: GatewayError.self) { try await archive.conversation(id: "resp_1", tokenId: "tok_a") }
        await archive.closeOffThePool()
    }
}

/// The archive's bounds (decision 0096): a conversation over `maxConversationBytes` is not kept (each continued
/// response stores the whole conversation, so chained 4 MiB inputs grew it without end), and while the store fails,
/// what waits in memory is bounded in bytes as well as in answers.
@Suite struct ResponseArchiveBoundsTests {
    @Test func aConversationOverTheLongestKeptIsNotKept() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-archive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let warnings = Mutex<[String]>([])
        let archive = ResponseArchive(store: try SQLiteStateStore(stateDirectory: dir), retention: 1, flushInterval: .milliseconds(20), now: { Date() }) { w in
            warnings.locked { $0.append(w) }
        }
        let longest = ResponseArchive.maxConversationBytes
        archive.save(id: "resp_long", tokenId: "tok", conversation: Self.items(bytes: longest + 1))
        archive.save(id: "resp_fits", tokenId: "tok", conversation: Self.items(bytes: longest))
        #expect(warnings.locked { $0 } == ["response resp_long was not kept: its conversation is \(longest + 1) bytes, over the \(longest) kept for one"])
        #expect(try await archive.conversation(id: "resp_fits", tokenId: "tok").itemsJSON.count == longest)
        do {
            _ = try await archive.conversation(id: "resp_long", tokenId: "tok")
            Issue.record("found")
        } catch let error as GatewayError {
            #expect(error.status == 404 && error.message.contains("over the 8 MiB kept for one"), "\(error.message)")
        }
        await archive.closeOffThePool()
    }

    @Test func whatWaitsForAFailingStoreIsBoundedInBytes() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-archive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = ResponseArchiveTests.FlakyStore(try SQLiteStateStore(stateDirectory: dir))
        let warnings = Mutex<[String]>([])
        let archive = ResponseArchive(store: store, retention: 1, flushInterval: .milliseconds(20), now: { Date() }) { w in
            warnings.locked { $0.append(w) }
        }
        // One array, shared by every save (copy on write): the test holds 8 MiB, the archive counts 256.
        let conversation = Self.items(bytes: ResponseArchive.maxConversationBytes)
        let fit = ResponseArchive.maxPendingBytes / conversation.count
        for i in 0..<fit { archive.save(id: "resp_\(i)", tokenId: "tok", conversation: conversation) }
        archive.save(id: "resp_more", tokenId: "tok", conversation: conversation)
        archive.save(id: "resp_0", tokenId: "tok", conversation: conversation)   // saved again: replaces, adds nothing
        #expect(warnings.locked { $0.filter { $0.contains("was not kept") } } == ["response resp_more was not kept: 10000 answers or \(ResponseArchive.maxPendingBytes) bytes wait for the state store, which is failing or slow"])
        #expect(try await archive.conversation(id: "resp_\(fit - 1)", tokenId: "tok").itemsJSON.count == conversation.count)
        await archive.closeOffThePool()
    }

    /// A JSON items array of about `bytes` bytes: one user message of filler text.
    static func items(bytes: Int) -> [UInt8] {
        let head = Array(#"[{"role":"user","content":""#.utf8), tail = Array(#""}]"#.utf8)
        return head + [UInt8](repeating: UInt8(ascii: "x"), count: bytes - head.count - tail.count) + tail
    }
}
