import Dispatch
import Foundation
import Testing
import Synchronization
import SkillGateCore
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// `ResponseArchive.delete` (`DELETE /v1/responses/{id}`, decision 0101): a token forgets its own responses, pending in
/// memory or stored, and a deletion never falls between a write's taking of an answer and its storing.
@Suite struct ResponseArchiveDeleteTests {
    typealias FlakyStore = ResponseArchiveTests.FlakyStore

    @Test func aTokenDeletesItsOwnResponsesPendingOrStoredAndNoOthers() async throws {
        try await withTemporaryDirectory { dir in
            let sqlite = try SQLiteStateStore(stateDirectory: dir)
            let store = FlakyStore(sqlite)
            // The writer waits a minute between writes: what is not flushed here stays pending.
            let archive = ResponseArchive(store: store, retention: 1, flushInterval: .seconds(60), now: { Date() }) { _ in }
            store.failing.locked { $0 = false }

            // Stored.
            archive.save(id: "resp_1", tokenId: "tok_a", conversation: ResponseArchiveTests.stored)
            await archive.flushOffThePool()
            #expect(try sqlite.storedResponse(id: "resp_1", tokenId: "tok_a", now: Date()) != nil)
            #expect(try await archive.delete(id: "resp_1", tokenId: "tok_b") == false, "another token's is left alone")
            #expect(try sqlite.storedResponse(id: "resp_1", tokenId: "tok_a", now: Date()) != nil)
            #expect(try await archive.delete(id: "resp_1", tokenId: "tok_a"))
            #expect(try sqlite.storedResponse(id: "resp_1", tokenId: "tok_a", now: Date()) == nil)
            #expect(try await archive.delete(id: "resp_1", tokenId: "tok_a") == false, "gone already")

            // Pending (the writer has not run): gone from memory, and never written afterwards.
            archive.save(id: "resp_2", tokenId: "tok_a", conversation: ResponseArchiveTests.stored)
            #expect(try await archive.delete(id: "resp_2", tokenId: "tok_b") == false)
            #expect(try await archive.conversation(id: "resp_2", tokenId: "tok_a").itemsJSON == ResponseArchiveTests.stored)
            #expect(try await archive.delete(id: "resp_2", tokenId: "tok_a"))
            #expect(try await archive.delete(id: "resp_2", tokenId: "tok_a") == false, "gone from memory")
            await archive.closeOffThePool()
            #expect(try sqlite.storedResponse(id: "resp_2", tokenId: "tok_a", now: Date()) == nil)
        }
    }

    @Test func aStoreThatFailsIsA503ToRetry() async throws {
        try await withTemporaryDirectory { dir in
            let store = FlakyStore(try SQLiteStateStore(stateDirectory: dir))
            let archive = ResponseArchive(store: store, retention: 1, flushInterval: .seconds(60), now: { Date() }) { _ in }
            let error = await #expect(throws: GatewayError.self) { try await archive.delete(id: "resp_1", tokenId: "tok_a") }
            #expect(error?.status == 503 && error?.retryAfter != nil)
            #expect(error?.message.contains("retry") == true)
        }
    }

    /// A response still pending because the store fails: the 503 deleted nothing, so the retry the message asks for
    /// deletes it once the store is back (before, the 503 had already dropped it from memory, and the retry answered a
    /// 404 "nothing was deleted" — an SDK retrying the 503 raised not-found for a response that was deleted).
    @Test func aPendingResponseSurvivesA503AndTheRetryDeletesIt() async throws {
        try await withTemporaryDirectory { dir in
            let sqlite = try SQLiteStateStore(stateDirectory: dir)
            let store = FlakyStore(sqlite)
            let archive = ResponseArchive(store: store, retention: 1, flushInterval: .milliseconds(200), now: { Date() }) { _ in }
            archive.save(id: "resp_1", tokenId: "tok_a", conversation: ResponseArchiveTests.stored)
            await archive.flushOffThePool()  // fails: the answer stays pending (and so do the writer's own tries)
            let error = await #expect(throws: GatewayError.self) { try await archive.delete(id: "resp_1", tokenId: "tok_a") }
            #expect(error?.status == 503)
            #expect(try await archive.conversation(id: "resp_1", tokenId: "tok_a").itemsJSON == ResponseArchiveTests.stored,
                    "a 503 deletes nothing")
            store.failing.locked { $0 = false }
            #expect(try await archive.delete(id: "resp_1", tokenId: "tok_a"), "the retry deletes it")
            await archive.closeOffThePool()
            #expect(try sqlite.storedResponse(id: "resp_1", tokenId: "tok_a", now: Date()) == nil)
        }
    }

    /// A store whose writes wait at a gate the test opens.
    final class GatedStore: ResponseStore {
        let inner: SQLiteStateStore
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        init(_ inner: SQLiteStateStore) { self.inner = inner }
        func saveResponses(_ responses: [StoredResponse], now: Date, maxBytesPerToken: Int) throws -> [String: Int] {
            guard !responses.isEmpty else { return [:] }
            entered.signal()
            gate.wait()
            return try inner.saveResponses(responses, now: now, maxBytesPerToken: maxBytesPerToken)
        }
        func storedResponse(id: String, tokenId: String, now: Date) throws -> StoredResponse? {
            try inner.storedResponse(id: id, tokenId: tokenId, now: now)
        }
        func storedResponseObject(id: String, tokenId: String, now: Date) throws -> StoredResponseObject {
            try inner.storedResponseObject(id: id, tokenId: tokenId, now: now)
        }
        func deleteResponse(id: String, tokenId: String) throws -> Bool {
            try inner.deleteResponse(id: id, tokenId: tokenId)
        }
    }

    /// The writer has taken the answer and is storing it when the deletion comes: the deletion waits for the write,
    /// then removes the stored row. Without that wait it found nothing stored, and the write brought the answer back.
    @Test func aDeleteDuringAWriteWaitsForItAndTheAnswerStaysDeleted() async throws {
        try await withTemporaryDirectory { dir in
            let sqlite = try SQLiteStateStore(stateDirectory: dir)
            let store = GatedStore(sqlite)
            let archive = ResponseArchive(store: store, retention: 1, flushInterval: .milliseconds(10), now: { Date() }) { _ in }
            archive.save(id: "resp_1", tokenId: "tok_a", conversation: ResponseArchiveTests.stored)
            try await offThePool { store.entered.wait() }  // the writer holds the answer, inside saveResponses

            let done = Mutex(false)
            async let deleted = { () async throws -> Bool in
                defer { done.locked { $0 = true } }
                return try await archive.delete(id: "resp_1", tokenId: "tok_a")
            }()
            try await Task.sleep(for: .milliseconds(150))
            #expect(!done.locked { $0 }, "the deletion waits for the write under way")
            store.gate.signal()
            #expect(try await deleted)
            // Later writes find nothing pending; open the gate for any that come before close.
            for _ in 0..<4 { store.gate.signal() }
            await archive.closeOffThePool()
            #expect(try sqlite.storedResponse(id: "resp_1", tokenId: "tok_a", now: Date()) == nil)
        }
    }
}
