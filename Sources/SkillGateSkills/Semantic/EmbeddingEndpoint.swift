import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

/// Where an embedding model lives and how to call it: the provider's deployment (base URL, auth
/// style, extra headers, timeouts), where its key comes from, and how the model marks queries
/// and documents. Shared by `OpenAIEmbedder` and `GeminiEmbedder`.
public struct EmbeddingEndpoint: Sendable {
    /// The provider endpoint and model; its `apiKey` is ignored (the key comes from `key` at each
    /// call, so a reloaded key file applies at once).
    public var deployment: Deployment
    /// The key-store name of the provider secret, for messages (`skillgate keys set NAME`).
    public var keyName: String?
    /// The provider secret, read at each call; `nil` when none is set.
    public var key: @Sendable () -> String?
    /// Text prefixes and the `input_type` field per purpose.
    public var inputs: EmbeddingInputs
    /// The length of the model's vectors, when the catalog gives it (answers of another length are refused).
    public var dimensions: Int?
    /// The most texts sent in one call; longer lists are split.
    public var maxBatch: Int
    /// Whether the HTTP connection is kept between calls (the catalog's `reuse_connections`).
    public var reuseConnections = true
    public var http: HTTPClient

    public init(deployment: Deployment, keyName: String? = nil, key: @escaping @Sendable () -> String? = { nil },
                inputs: EmbeddingInputs = EmbeddingInputs(), dimensions: Int? = nil, maxBatch: Int = 96, http: HTTPClient) {
        self.deployment = deployment
        self.keyName = keyName
        self.key = key
        self.inputs = inputs
        self.dimensions = dimensions
        self.maxBatch = max(1, maxBatch)
        self.http = http
    }

    /// `provider/model`, for messages.
    public var qualifiedModel: String { "\(deployment.providerId)/\(deployment.model)" }

    /// The part of an embedder's identity that comes from the endpoint: the model and anything
    /// that changes the text the model sees.
    var identitySuffix: String {
        var s = qualifiedModel
        if let p = inputs.queryPrefix { s += ";query_prefix=" + p }
        if let p = inputs.documentPrefix { s += ";document_prefix=" + p }
        if let t = inputs.inputType { s += ";input_type=" + t.query + "|" + t.document }
        return s
    }

    /// `text` with the purpose's prefix.
    func prefixed(_ text: String, _ purpose: EmbeddingPurpose) -> String {
        let prefix = purpose == .query ? inputs.queryPrefix : inputs.documentPrefix
        return (prefix ?? "") + text
    }

    /// The deployment with the current key. Throws `.missingKey` when the provider needs one and
    /// none is set.
    func keyedDeployment() throws(EmbeddingError) -> Deployment {
        var d = deployment
        d.apiKey = nil
        guard d.auth != .none else { return d }
        guard let secret = key(), !secret.isEmpty else {
            let fix = keyName.map { "set it with `skillgate keys set \($0)`" } ?? "add \"key_name\" to Providers/\(d.providerId).json and set the key"
            throw EmbeddingError(kind: .missingKey, model: qualifiedModel, message: "no key is set for provider \"\(d.providerId)\"; \(fix)")
        }
        d.apiKey = secret
        return d
    }

    /// POSTs `body` to `url` and returns the 2xx body. A non-2xx answer is read with the wire
    /// format's error parser (`parseError`), which finds the provider's message; the key is taken out of it
    /// (`GatewayError.redacting`) whatever the format's parser did.
    func post(url: String, body: JSONValue, deployment d: Deployment,
              parseError: (Int, HTTPHeaders, [UInt8], Deployment) -> GatewayError) async throws(EmbeddingError) -> [UInt8] {
        var request = HTTPRequest(url: url, headers: d.requestHeaders(streaming: false), body: body.serializedBytes(), timeouts: d.timeouts)
        request.reuseConnection = reuseConnections
        request.httpVersion = d.httpVersion
        request.caFile = d.caFile
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let e as HTTPClientError {
            throw EmbeddingError.transport(e, model: qualifiedModel, provider: d.providerId)
        } catch {
            throw EmbeddingError(kind: .cancelled, model: qualifiedModel, message: "the request was cancelled")
        }
        guard (200..<300).contains(response.status) else {
            let e = parseError(response.status, response.headers, response.body, d).redacting(d.apiKey)
            throw EmbeddingError(kind: .rejected, model: qualifiedModel, upstreamStatus: response.status,
                                 message: e.message + Self.hint(status: response.status))
        }
        return response.body
    }

    /// What an operator does about a refused embedding call, beyond what the provider said.
    private static func hint(status: Int) -> String {
        switch status {
        case 401, 403: return " (the embedding model uses the same key as the provider's chat models)"
        case 404: return " (check the embedding model id in the catalog and that the server serves an embeddings endpoint)"
        default: return ""
        }
    }

    /// Splits `texts` into batches of at most `maxBatch`.
    func batches(_ texts: [String]) -> [ArraySlice<String>] {
        stride(from: 0, to: texts.count, by: maxBatch).map { texts[$0..<min($0 + maxBatch, texts.count)] }
    }

    /// Checks the vectors of one answer: one per text, all of one length (the catalog's, when known), finite values,
    /// a finite non-zero length (`UnitVector`; decision 0102).
    func check(_ vectors: [[Float]], count: Int) throws(EmbeddingError) {
        guard vectors.count == count else {
            throw EmbeddingError.malformed("the answer has \(vectors.count) vectors for \(count) texts", model: qualifiedModel)
        }
        let length = dimensions ?? vectors.first?.count ?? 0
        for (i, v) in vectors.enumerated() {
            guard !v.isEmpty else { throw EmbeddingError.malformed("vector \(i) is empty", model: qualifiedModel) }
            guard v.count == length else {
                let expected = dimensions.map { "the catalog says \($0) (\"dimensions\")" } ?? "vector 0 has \(length)"
                throw EmbeddingError.malformed("vector \(i) has \(v.count) dimensions, \(expected)", model: qualifiedModel)
            }
            if case .failure(let problem) = UnitVector.squaredLength(v) {
                throw EmbeddingError.malformed("vector \(i) \(problem.description)", model: qualifiedModel)
            }
        }
    }
}
