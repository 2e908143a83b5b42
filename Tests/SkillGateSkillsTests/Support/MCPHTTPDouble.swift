import SkillGateCore
import SkillGateHTTP
import SkillGateSkills
import Synchronization

/// A streamable-HTTP MCP server double speaking the real wire format (JSON-RPC over POST, answers as
/// `application/json` or `text/event-stream`, `Mcp-Session-Id` issued at initialize), with the
/// misbehaviours the gateway must survive.
final class MCPHTTPDouble: Sendable {
    enum Behaviour: Sendable {
        /// Tools `echo` and `add`; answers as JSON.
        case healthy
        /// The same, with every answer as an SSE stream that first carries a notification.
        case eventStream
        /// Never answers tools/call (sleeps longer than any test's timeout).
        case hangOnCall
        /// Never answers at all.
        case hangAlways
        /// Answers every request with a body that is not JSON-RPC.
        case invalidJSONRPC
        /// Lists `count` tools, `pageSize` per page, with `nextCursor`.
        case manyTools(count: Int, pageSize: Int)
    }

    let behaviour: Behaviour
    let server: LocalHTTPServer
    /// The methods received, in order.
    private let methods = Mutex<[String]>([])
    private let sessions = Mutex<[String?]>([])

    init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let box = ResponderBox()
        server = try LocalHTTPServer { request in box.respond(request) }
        box.double.locked { $0.double = self }
    }

    var url: String { server.url("/mcp") }
    var receivedMethods: [String] { methods.locked { $0 } }
    /// The `Mcp-Session-Id` header of every request after the first.
    var sessionHeaders: [String?] { sessions.locked { $0 } }

    func stop() async { await server.stop() }

    fileprivate func respond(_ request: HTTPServerRequest) -> LocalHTTPServer.Reply {
        guard let message = try? JSONRPCMessage.decode(request.body) else {
            return LocalHTTPServer.Reply(status: 400, headers: ["Content-Type": "application/json"], body: Array(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}"#.utf8))
        }
        switch message {
        case .request(let id, let method, let params):
            methods.locked { $0.append(method) }
            if method != "initialize" { sessions.locked { $0.append(request.headers["Mcp-Session-Id"]) } }
            return answer(id: id, method: method, params: params, authorization: request.headers["Authorization"] ?? "")
        case .notification(let method, _):
            methods.locked { $0.append(method) }
            return LocalHTTPServer.Reply(status: 202, headers: [:], body: [])
        default:
            return LocalHTTPServer.Reply(status: 202, headers: [:], body: [])
        }
    }

    private func answer(id: JSONRPCId, method: String, params: JSONValue?, authorization: String) -> LocalHTTPServer.Reply {
        let hang = LocalHTTPServer.Reply(status: 200, headers: ["Content-Type": "application/json"], body: [], delay: .seconds(30))
        switch behaviour {
        case .hangAlways: return hang
        case .hangOnCall where method == "tools/call": return hang
        case .invalidJSONRPC:
            return LocalHTTPServer.Reply(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{"jsonrpc":"1.0","result":"#.utf8))
        default: break
        }
        let result: JSONValue
        switch method {
        case "initialize":
            result = ["protocolVersion": "2025-06-18", "capabilities": ["tools": ["listChanged": true]], "serverInfo": ["name": "double", "version": "1"]]
        case "tools/list":
            if case .manyTools(let count, let pageSize) = behaviour {
                let start = params?["cursor"]?.stringValue.flatMap { Int($0) } ?? 0
                let end = min(count, start + pageSize)
                var o: JSONObject = ["tools": .array((start..<end).map { i in
                    ["name": .string("tool_\(i)"), "description": .string("Tool number \(i)"), "inputSchema": ["type": "object"]]
                })]
                if end < count { o.append("nextCursor", .string(String(end))) }
                result = .object(o)
            } else {
                result = ["tools": [
                    ["name": "echo", "description": "Echoes text", "inputSchema": ["type": "object", "properties": ["text": ["type": "string"]], "required": ["text"]]],
                    ["name": "add", "description": "Adds a and b", "inputSchema": ["type": "object", "properties": ["a": ["type": "integer"], "b": ["type": "integer"]]]],
                ]]
            }
        case "tools/call":
            let args = params?["arguments"]
            switch params?["name"]?.stringValue {
            case "echo": result = ["content": [["type": "text", "text": .string("echo: " + (args?["text"]?.stringValue ?? ""))]], "isError": false]
            case "add": result = ["content": [["type": "text", "text": .string(String((args?["a"]?.intValue ?? 0) + (args?["b"]?.intValue ?? 0)))]]]
            // Not listed: a broken server that sends back the credential it was sent, in a result and in an error.
            case "whoami":
                result = ["content": [["type": "text", "text": .string("you sent \(authorization)")]],
                          "structuredContent": ["authorization": .string(authorization), "seen": [.string(authorization)]]]
            case "refuse":
                return reply(.error(id: id, error: JSONRPCError(code: -32000, message: "not allowed with \(authorization)")))
            default:
                return reply(.error(id: id, error: JSONRPCError(code: -32602, message: "Unknown tool")))
            }
        default:
            return reply(.error(id: id, error: JSONRPCError(code: -32601, message: "Method not found")))
        }
        return reply(.result(id: id, result: result))
    }

    private func reply(_ message: JSONRPCMessage) -> LocalHTTPServer.Reply {
        var headers: HTTPHeaders = ["Mcp-Session-Id": "session-1"]
        if case .eventStream = behaviour {
            headers.add("Content-Type", "text/event-stream")
            let note = JSONRPCMessage.notification(method: "notifications/message", params: ["level": "info", "data": "working"])
            let body = "event: message\ndata: \(note.json.serialized())\n\nevent: message\ndata: \(message.json.serialized())\n\n"
            return LocalHTTPServer.Reply(status: 200, headers: headers, body: Array(body.utf8))
        }
        headers.add("Content-Type", "application/json")
        return LocalHTTPServer.Reply(status: 200, headers: headers, body: message.bytes)
    }
}

/// Lets the server's handler reach the double created after it (weakly: the double owns the server).
private final class ResponderBox: Sendable {
    struct Weak { weak var double: MCPHTTPDouble? }
    let double = Mutex(Weak())
    func respond(_ request: HTTPServerRequest) -> LocalHTTPServer.Reply {
        guard let d = double.locked({ $0.double }) else { return LocalHTTPServer.Reply(status: 503) }
        return d.respond(request)
    }
}
