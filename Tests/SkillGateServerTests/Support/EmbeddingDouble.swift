import Foundation
import Synchronization
import SkillGateCore
import SkillGateHTTP

/// An OpenAI-compatible embeddings server on 127.0.0.1 (an ephemeral port), built on SkillGate's
/// own `HTTPServer`: `POST /v1/embeddings` answers one vector per input from `TopicVectors`, after
/// an optional delay (a model that stalls). Records every request body.
final class EmbeddingDouble: HTTPHandler {
    private let delay: Mutex<Duration?>
    private let received = Mutex<[JSONValue]>([])
    private let server = Mutex<HTTPServer?>(nil)
    private let boundPort = Mutex(0)

    init(delay: Duration? = nil) throws {
        self.delay = Mutex(delay)
        let s = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: self)
        try s.start()
        server.locked { $0 = s }
        boundPort.locked { $0 = s.boundPort }
    }

    var port: Int { boundPort.locked { $0 } }
    /// `http://127.0.0.1:PORT/v1`.
    var baseURL: String { "http://127.0.0.1:\(port)/v1" }
    var requests: [JSONValue] { received.locked { $0 } }
    /// The `input` texts of every request, per request.
    var inputs: [[String]] { requests.map { ($0["input"]?.arrayValue ?? []).compactMap(\.stringValue) } }

    func stop() async {
        // The server is dropped once stopped: it holds its event loops, which hold this handler
        // (a cycle that AddressSanitizer's leak check reported; docs/decisions/0025).
        if let s = server.locked({ s in defer { s = nil }; return s }) { await s.shutdown(deadline: .milliseconds(100)) }
    }

    func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
        guard request.path == "/v1/embeddings", let body = try? JSONValue.parse(request.body) else {
            return responder.respond(status: 404, headers: ["content-type": "application/json"], body: Array(#"{"error":{"message":"unknown route"}}"#.utf8))
        }
        received.locked { $0.append(body) }
        if let d = delay.locked({ $0 }) {
            try? await Task.sleep(for: d)
            if Task.isCancelled { return }
        }
        let texts = (body["input"]?.arrayValue ?? []).compactMap(\.stringValue)
        let data: [JSONValue] = texts.enumerated().map { i, text in
            ["object": "embedding", "index": .int(i), "embedding": .array(TopicVectors.vector(text).map { .double(Double($0)) })]
        }
        let answer: JSONValue = ["object": "list", "data": .array(data), "model": "double"]
        responder.respond(status: 200, headers: ["content-type": "application/json"], body: answer.serializedBytes())
    }
}

/// Three-dimensional "embeddings" by topic, across languages: weather, mail, everything else.
enum TopicVectors {
    static func vector(_ text: String) -> [Float] {
        let t = text.lowercased()
        if ["weather", "forecast", "天气", "下雨", "气温", "晒不晒"].contains(where: t.contains) { return [1, 0.1, 0] }
        if ["mail", "邮件"].contains(where: t.contains) { return [0, 1, 0.1] }
        return [0.1, 0, 1]
    }

    /// A catalog file for a provider `id` serving the embedding model `topics` at `baseURL`.
    static func catalogFile(id: String, baseURL: String) -> String {
        #"""
        {"id":"\#(id)","wire_format":"openai-chat","base_url":"\#(baseURL)","auth":"none",
         "models":[{"id":"topics","kind":"embedding","dimensions":3,"input_type":{"query":"query","document":"passage"}}]}
        """#
    }
}
