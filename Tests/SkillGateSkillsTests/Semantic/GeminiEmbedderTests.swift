import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
@testable import SkillGateSkills

@Suite struct GeminiEmbedderTests {
    typealias F = EmbedderFixtures

    static func answer(_ vectors: [[Float]]) -> LocalHTTPServer.Reply {
        F.json(#"{"embeddings":[\#(vectors.map { #"{"values":[\#($0.map { "\($0)" }.joined(separator: ","))]}"# }.joined(separator: ","))]}"#)
    }

    @Test func batchEmbedContentsWithTaskTypesAndTheKeyInAHeader() async throws {
        let server = try LocalHTTPServer { request in
            let n = (try? JSONValue.parse(request.body))?["requests"]?.arrayValue?.count ?? 0
            return Self.answer(Array([[1, 2, 3], [4, 5, 6]].prefix(n)))
        }
        defer { Task { await server.stop() } }
        let embedder = GeminiEmbedder(endpoint: F.endpoint(server, provider: "gemini", model: "gemini-embedding-001", auth: .xGoogApiKey))
        let vectors = try await embedder.embed(["get weather", "send email"], as: .document)
        _ = try await embedder.embed(["明天下雨吗"], as: .query)
        #expect(vectors == [[1, 2, 3], [4, 5, 6]])
        let seen = try #require(server.requests.first)
        #expect(seen.method == "POST" && seen.path == "/v1/models/gemini-embedding-001:batchEmbedContents")
        #expect(seen.query == nil, "the key never travels in the URL")
        #expect(seen.headers["x-goog-api-key"] == F.secret && seen.headers["authorization"] == nil)
        let body = try JSONValue.parse(seen.body)
        #expect(body == ["requests": [
            ["model": "models/gemini-embedding-001", "content": ["parts": [["text": "get weather"]]], "taskType": "RETRIEVAL_DOCUMENT"],
            ["model": "models/gemini-embedding-001", "content": ["parts": [["text": "send email"]]], "taskType": "RETRIEVAL_DOCUMENT"],
        ]])
        let query = try JSONValue.parse(server.requests[1].body)
        #expect(query["requests"]?.arrayValue?.first?["taskType"] == "RETRIEVAL_QUERY")
        #expect(embedder.identity == "gemini-embeddings:gemini/gemini-embedding-001")
    }

    @Test func batchesAreAtMostAHundredRequests() async throws {
        let server = try LocalHTTPServer { request in
            let n = (try? JSONValue.parse(request.body))?["requests"]?.arrayValue?.count ?? 0
            return Self.answer(Array(repeating: [1, 0, 0], count: n))
        }
        defer { Task { await server.stop() } }
        let vectors = try await GeminiEmbedder(endpoint: F.endpoint(server, auth: .xGoogApiKey, maxBatch: 500))
            .embed((0..<130).map { "t\($0)" }, as: .document)
        #expect(vectors.count == 130)
        #expect(server.requests.map { (try? JSONValue.parse($0.body))?["requests"]?.arrayValue?.count } == [100, 30])
    }

    @Test func aGeminiErrorBodyGivesStatusAndMessageWithoutTheKey() async throws {
        let server = try LocalHTTPServer { _ in
            F.json(#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key. (\#(F.secret))","status":"INVALID_ARGUMENT"}}"#, status: 400)
        }
        defer { Task { await server.stop() } }
        do {
            _ = try await GeminiEmbedder(endpoint: F.endpoint(server, auth: .xGoogApiKey)).embed(["a"], as: .query)
            Issue.record("expected a refusal")
        } catch let e as EmbeddingError {
            #expect(e.kind == .rejected && e.reason == "embeddings_http_400")
            #expect(e.message.contains("API key not valid"))
            #expect(!e.description.contains(F.secret))
        }
    }

    @Test func anAnswerWithoutEmbeddingsIsMalformed() async throws {
        let server = try LocalHTTPServer { _ in F.json(#"{"embedding":{"values":[1,2,3]}}"#) }
        defer { Task { await server.stop() } }
        await #expect {
            _ = try await GeminiEmbedder(endpoint: F.endpoint(server, auth: .xGoogApiKey)).embed(["a"], as: .query)
        } throws: { error in
            (error as? EmbeddingError).map { $0.kind == .malformed && $0.message.contains("no \"embeddings\" array") } ?? false
        }
    }
}
