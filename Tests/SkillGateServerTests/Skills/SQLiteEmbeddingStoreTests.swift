import Foundation
import Testing
import SkillGateKeys
import SkillGateSkills
import SkillGateState
@testable import SkillGateServer

@Suite struct SQLiteEmbeddingStoreTests {
    @Test func aNewCacheOnTheSameStateFileFindsTheVectors() async throws {
        let dir = NSTemporaryDirectory() + "skillgate-embedstore-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let weather = EmbeddingKey(identity: "openai-embeddings:local-e5/multilingual-e5-small", purpose: .document, text: "get weather: 天气预报")
        do {
            let cache = EmbeddingCache(store: SQLiteEmbeddingStore(store: try SQLiteStateStore(stateDirectory: dir)))
            await cache.insert([weather: [0.5, -0.5, 0.5, 0.5]])
        }
        // A restart: a new store object and a new cache on the same file.
        let store = try SQLiteStateStore(stateDirectory: dir)
        let cache = EmbeddingCache(store: SQLiteEmbeddingStore(store: store))
        #expect(cache.count == 0)
        #expect(await cache.vectors(for: [weather]) == [[0.5, -0.5, 0.5, 0.5]])
        // The key covers identity and purpose; the text itself is not stored (only its hash).
        var asQuery = weather
        asQuery.purpose = .query
        var otherModel = weather
        otherModel.identity = "openai-embeddings:openai/text-embedding-3-small"
        #expect(await cache.vectors(for: [asQuery, otherModel]) == [nil, nil])
        let keys = try store.withConnection { db in try db.prepare("SELECT key, embedder FROM embedding_cache").rows { ($0.text(0), $0.text(1)) } }
        #expect(keys.count == 1 && keys[0].0 == SHA256Hash.hex(weather.content) && keys[0].1 == weather.identity)
        #expect(cache.storeFailures == 0)
    }
}
