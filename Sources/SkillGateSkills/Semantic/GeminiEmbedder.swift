import SkillGateCore
import SkillGateProviders

/// Embeddings over the Gemini API: `POST {base_url}/models/{model}:batchEmbedContents` with one
/// request per text (`{"model": "models/…", "content": {"parts": [{"text"}]}, "taskType":
/// "RETRIEVAL_QUERY" | "RETRIEVAL_DOCUMENT"}`), answered by `{"embeddings": [{"values": [...]}]}`
/// in request order. The key travels in `x-goog-api-key`, never in the URL.
public struct GeminiEmbedder: TextEmbedder {
    public let endpoint: EmbeddingEndpoint

    public init(endpoint: EmbeddingEndpoint) {
        var endpoint = endpoint
        endpoint.maxBatch = min(endpoint.maxBatch, 100)  // the API's limit per batch
        self.endpoint = endpoint
    }

    public var identity: String { "gemini-embeddings:" + endpoint.identitySuffix }

    public var modelName: String { endpoint.qualifiedModel }

    public func embed(_ texts: [String], as purpose: EmbeddingPurpose) async throws -> [[Float]] {
        let deployment = try endpoint.keyedDeployment()
        let url = deployment.baseURL + "/models/" + deployment.model + ":batchEmbedContents"
        var out: [[Float]] = []
        out.reserveCapacity(texts.count)
        for batch in endpoint.batches(texts) {
            let body = try await endpoint.post(url: url, body: requestBody(batch, purpose), deployment: deployment,
                                               parseError: GeminiFormat().parseError)
            let vectors = try Self.vectors(from: body, model: endpoint.qualifiedModel)
            try endpoint.check(vectors, count: batch.count)
            out += vectors
        }
        return out
    }

    /// The request body for one batch.
    func requestBody(_ texts: ArraySlice<String>, _ purpose: EmbeddingPurpose) -> JSONValue {
        let model = JSONValue.string("models/" + endpoint.deployment.model)
        let task = JSONValue.string(purpose == .query ? "RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT")
        return ["requests": .array(texts.map { text in
            ["model": model, "content": ["parts": [["text": .string(endpoint.prefixed(text, purpose))]]], "taskType": task]
        })]
    }

    /// The vectors of an answer, in request order.
    static func vectors(from body: [UInt8], model: String) throws(EmbeddingError) -> [[Float]] {
        var vectors: [[Float]?] = []
        var sawEmbeddings = false
        try EmbeddingJSON.read(body, model: model) { (c) throws(JSONSyntaxError) in
            _ = try c.readObject { (c, key) throws(JSONSyntaxError) in
                guard key == "embeddings" else { return }
                sawEmbeddings = try c.readArray { (c) throws(JSONSyntaxError) in
                    var values: [Float]?
                    _ = try c.readObject { (c, key) throws(JSONSyntaxError) in
                        if key == "values" { values = try EmbeddingJSON.floats(&c) }
                    }
                    vectors.append(values)
                }
            }
        }
        guard sawEmbeddings else { throw EmbeddingError.malformed("the answer has no \"embeddings\" array", model: model) }
        var out: [[Float]] = []
        for (i, v) in vectors.enumerated() {
            guard let v else { throw EmbeddingError.malformed("embeddings[\(i)].values is not an array of numbers", model: model) }
            out.append(v)
        }
        return out
    }
}
