import Foundation
import Testing
@testable import SkillGateState

@Suite struct SQLiteStateStoreEmbeddingTests {
    private func withStore(_ body: (String) throws -> Void) throws {
        let dir = NSTemporaryDirectory() + "skillgate-embeddings-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(dir)
    }

    @Test func vectorsSurviveAReopenAsFloat32() throws {
        try withStore { dir in
            let v: [Float] = [0.25, -1.5, 3.0e-8, .greatestFiniteMagnitude]
            try SQLiteStateStore(stateDirectory: dir).saveEmbeddings([StoredEmbedding(key: "k1", embedder: "m", vector: v)])
            let reopened = try SQLiteStateStore(stateDirectory: dir)
            #expect(try reopened.embeddings(keys: ["k1", "k2"]) == ["k1": v])
            #expect(try reopened.schemaVersion() == StateSchema.steps.count)
            let blob = try reopened.withConnection { db in try db.prepare("SELECT vector, dimensions FROM embedding_cache").firstRow { ($0.blob(0), $0.int64(1)) } }
            #expect(blob?.0?.count == 16 && blob?.1 == 4)
            #expect(blob?.0?.prefix(4) == [0x00, 0x00, 0x80, 0x3E], "0.25 as little-endian Float32")
        }
    }

    @Test func savingReplacesAndTheTableIsTrimmedOldestFirst() throws {
        try withStore { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            let t0 = Date(timeIntervalSince1970: 1_000)
            try store.saveEmbeddings([StoredEmbedding(key: "a", embedder: "m", vector: [1])], at: t0, capacity: 2)
            try store.saveEmbeddings([StoredEmbedding(key: "b", embedder: "m", vector: [2])], at: t0 + 1, capacity: 2)
            try store.saveEmbeddings([StoredEmbedding(key: "b", embedder: "m", vector: [3])], at: t0 + 2, capacity: 2)
            #expect(try store.embeddingCount() == 2)
            try store.saveEmbeddings([StoredEmbedding(key: "c", embedder: "other", vector: [4])], at: t0 + 3, capacity: 2)
            #expect(try store.embeddings(keys: ["a", "b", "c"]) == ["b": [3], "c": [4]])
            #expect(try store.deleteEmbeddings(embedder: "m") == 1)
            #expect(try store.embeddingCount() == 1)
        }
    }

    @Test func manyKeysAreReadInChunks() throws {
        try withStore { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            let entries = (0..<600).map { StoredEmbedding(key: "k\($0)", embedder: "m", vector: [Float($0)]) }
            try store.saveEmbeddings(entries)
            let found = try store.embeddings(keys: entries.map(\.key))
            #expect(found.count == 600 && found["k599"] == [599])
        }
    }
}
