import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
@testable import SkillGateSkills

/// Endpoints and answers for the embedder tests (a `LocalHTTPServer` plays the provider).
enum EmbedderFixtures {
    static let http = HTTPClient()
    static let secret = "sk-test-EMBEDDINGKEY-0123456789"

    static func endpoint(_ server: LocalHTTPServer, provider: String = "acme", model: String = "embed-1", auth: AuthStyle = .bearer,
                         key: String? = secret, inputs: EmbeddingInputs = EmbeddingInputs(), dimensions: Int? = 3,
                         maxBatch: Int = 96, timeout: Duration = .seconds(5)) -> EmbeddingEndpoint {
        let deployment = Deployment(providerId: provider, model: model, baseURL: server.url("/v1"), auth: auth,
                                    timeouts: HTTPTimeouts(connect: timeout, firstByte: timeout, idle: timeout, total: timeout))
        return EmbeddingEndpoint(deployment: deployment, keyName: "ACME_API_KEY", key: { key }, inputs: inputs,
                                 dimensions: dimensions, maxBatch: maxBatch, http: http)
    }

    static func json(_ body: String, status: Int = 200) -> LocalHTTPServer.Reply {
        LocalHTTPServer.Reply(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
    }

    /// An OpenAI embeddings answer for `vectors`, listed in the given index order.
    static func openAIAnswer(_ vectors: [[Float]], order: [Int]? = nil) -> LocalHTTPServer.Reply {
        let items = (order ?? Array(vectors.indices)).map { i in
            #"{"object":"embedding","index":\#(i),"embedding":[\#(vectors[i].map { "\($0)" }.joined(separator: ","))]}"#
        }
        return json(#"{"object":"list","data":[\#(items.joined(separator: ","))],"model":"embed-1","usage":{"prompt_tokens":3,"total_tokens":3}}"#)
    }

    /// A deterministic 3-dimensional vector per text, so answers can be built from requests.
    static func vector(_ text: String) -> [Float] {
        let n = Float(text.utf8.count)
        return [n, 1, Float(text.utf8.first ?? 0) / 100]
    }

    /// The `input` texts of an OpenAI embeddings request.
    static func inputs(_ request: HTTPServerRequest) -> [String] {
        ((try? JSONValue.parse(request.body))?["input"]?.arrayValue ?? []).compactMap(\.stringValue)
    }
}
