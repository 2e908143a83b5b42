import Foundation
import Synchronization
import SkillGateCore
import SkillGateHTTP

/// What the upstream double's model answers.
enum ScriptedAnswer: Sendable {
    case text(String)
    case toolCall(name: String, arguments: String)
    /// Several calls in one answer (`call_1`, `call_2`, …), as a model that calls tools in parallel answers.
    case toolCalls([ScriptedCall])
    case empty
}

/// One call of `ScriptedAnswer.toolCalls`.
struct ScriptedCall: Sendable {
    var name: String
    var arguments: String
}

/// A tiny OpenAI-compatible upstream on 127.0.0.1 (the real `HTTPServer`), answering each model
/// from a script, as JSON or as SSE when the request asks to stream. Records every request body.
final class ScriptedUpstream: HTTPHandler {
    private let script: Mutex<[String: ScriptedAnswer]>
    private let received = Mutex<[JSONValue]>([])

    init(_ script: [String: ScriptedAnswer]) {
        self.script = Mutex(script)
    }

    /// Starts on an ephemeral port and returns the base URL (`http://127.0.0.1:PORT/v1`).
    static func start(_ script: [String: ScriptedAnswer]) throws -> (ScriptedUpstream, HTTPServer, String) {
        let upstream = ScriptedUpstream(script)
        let server = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: upstream)
        try server.start()
        return (upstream, server, "http://127.0.0.1:\(server.boundPort)/v1")
    }

    /// The request bodies received so far.
    var requests: [JSONValue] { received.locked { $0 } }
    /// The `model` of each request received.
    var models: [String] { requests.compactMap { $0["model"]?.stringValue } }

    func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
        guard let body = try? JSONValue.parse(request.body) else {
            return responder.respond(status: 400, headers: ["content-type": "application/json"], body: Array(#"{"error":{"message":"bad json"}}"#.utf8))
        }
        received.locked { $0.append(body) }
        let model = body["model"]?.stringValue ?? ""
        let answer = script.locked { $0[model] } ?? .text("no script for \(model)")
        if body["stream"]?.boolValue == true {
            try? await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
            for chunk in Self.chunks(answer, model: model) {
                try? await responder.write(Array("data: \(chunk.serialized())\n\n".utf8))
            }
            try? await responder.write(Array("data: [DONE]\n\n".utf8))
            responder.end()
        } else {
            responder.respond(status: 200, headers: ["content-type": "application/json"], body: Self.completion(answer, model: model).serializedBytes())
        }
    }

    static func completion(_ answer: ScriptedAnswer, model: String) -> JSONValue {
        var message: JSONObject = ["role": "assistant"]
        var finish = "stop"
        switch answer {
        case .text(let t): message["content"] = .string(t)
        case .empty: message["content"] = ""
        case .toolCall(let name, let args):
            message["content"] = .null
            message["tool_calls"] = [["id": "call_1", "type": "function", "function": ["name": .string(name), "arguments": .string(args)]]]
            finish = "tool_calls"
        case .toolCalls(let calls):
            message["content"] = .null
            message["tool_calls"] = .array(calls.enumerated().map { i, call in
                ["id": .string("call_\(i + 1)"), "type": "function", "function": ["name": .string(call.name), "arguments": .string(call.arguments)]]
            })
            finish = "tool_calls"
        }
        return ["id": "chatcmpl-up", "object": "chat.completion", "created": 1, "model": .string(model),
                "choices": [["index": 0, "message": .object(message), "finish_reason": .string(finish)]],
                "usage": ["prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8]]
    }

    static func chunks(_ answer: ScriptedAnswer, model: String) -> [JSONValue] {
        func chunk(_ delta: JSONValue, _ finish: JSONValue = .null) -> JSONValue {
            ["id": "chatcmpl-up", "object": "chat.completion.chunk", "created": 1, "model": .string(model),
             "choices": [["index": 0, "delta": delta, "finish_reason": finish]]]
        }
        switch answer {
        case .text(let t):
            let mid = t.index(t.startIndex, offsetBy: t.count / 2)
            return [chunk(["role": "assistant", "content": .string(String(t[..<mid]))]), chunk(["content": .string(String(t[mid...]))]), chunk([:], "stop")]
        case .empty:
            return [chunk(["role": "assistant", "content": ""]), chunk([:], "stop")]
        case .toolCall(let name, let args):
            return [chunk(["role": "assistant", "tool_calls": [["index": 0, "id": "call_1", "type": "function", "function": ["name": .string(name), "arguments": ""]]]]),
                    chunk(["tool_calls": [["index": 0, "function": ["arguments": .string(args)]]]]),
                    chunk([:], "tool_calls")]
        case .toolCalls(let calls):
            var chunks = [chunk(["role": "assistant"])]
            for (i, call) in calls.enumerated() {
                chunks.append(chunk(["tool_calls": [["index": .int(i), "id": .string("call_\(i + 1)"), "type": "function", "function": ["name": .string(call.name), "arguments": ""]]]]))
                chunks.append(chunk(["tool_calls": [["index": .int(i), "function": ["arguments": .string(call.arguments)]]]]))
            }
            return chunks + [chunk([:], "tool_calls")]
        }
    }
}
