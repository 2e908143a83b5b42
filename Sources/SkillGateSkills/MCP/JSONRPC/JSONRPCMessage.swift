import SkillGateCore

/// A JSON-RPC 2.0 request id: a string or an integer (MCP forbids `null` ids).
public enum JSONRPCId: Sendable, Hashable, CustomStringConvertible {
    case number(Int)
    case string(String)

    /// The id as a JSON value.
    public var json: JSONValue {
        switch self {
        case .number(let n): return .int(n)
        case .string(let s): return .string(s)
        }
    }

    /// The id of a JSON value, if it is a string or an integer.
    public init?(_ value: JSONValue) {
        if let s = value.stringValue { self = .string(s) } else if case .number(let t) = value, let n = Int(t) { self = .number(n) } else { return nil }
    }

    public var description: String { json.serialized() }
}

/// A JSON-RPC error object (`{"code": -32601, "message": "...", "data": ...}`).
public struct JSONRPCError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The body was not JSON.
    public static let parseError = -32700
    /// The JSON was not a JSON-RPC request.
    public static let invalidRequest = -32600
    /// No such method.
    public static let methodNotFound = -32601
    /// The method's params are wrong (MCP: also an unknown tool).
    public static let invalidParams = -32602
    /// The server failed.
    public static let internalError = -32603

    public var json: JSONValue {
        var o: JSONObject = ["code": .int(code), "message": .string(message)]
        o.append("data", ifPresent: data)
        return .object(o)
    }

    public var description: String { "JSON-RPC error \(code): \(message)" }
}

/// One JSON-RPC 2.0 message: a request (has an id and a method), a notification (a method, no id),
/// or a response (an id and exactly one of `result` and `error`).
public enum JSONRPCMessage: Sendable, Hashable {
    case request(id: JSONRPCId, method: String, params: JSONValue?)
    case notification(method: String, params: JSONValue?)
    case result(id: JSONRPCId, result: JSONValue)
    /// An error response; `id` is nil when the request's id could not be read (a parse error).
    case error(id: JSONRPCId?, error: JSONRPCError)

    /// The message as JSON.
    public var json: JSONValue {
        var o: JSONObject = ["jsonrpc": "2.0"]
        switch self {
        case .request(let id, let method, let params):
            o.append("id", id.json)
            o.append("method", .string(method))
            o.append("params", ifPresent: params)
        case .notification(let method, let params):
            o.append("method", .string(method))
            o.append("params", ifPresent: params)
        case .result(let id, let result):
            o.append("id", id.json)
            o.append("result", result)
        case .error(let id, let error):
            o.append("id", id?.json ?? .null)
            o.append("error", error.json)
        }
        return .object(o)
    }

    /// The serialised message (one line: the writer never emits a newline).
    public var bytes: [UInt8] { json.serializedBytes() }

    /// Reads one message from `bytes`. Throws a `JSONRPCError` with code -32700 when the bytes are
    /// not JSON (or, with `duplicateKeys: .refused`, as for a message a client sends the gateway's
    /// `/mcp`, when an object in them names a key twice), -32600 when the JSON is not a JSON-RPC 2.0
    /// message (its `data` carries the id when one could be read, so a server can answer it).
    public static func decode(_ bytes: [UInt8], duplicateKeys: JSONDuplicateKeys = .allowed) throws(JSONRPCError) -> JSONRPCMessage {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes, duplicateKeys: duplicateKeys) } catch {
            throw JSONRPCError(code: JSONRPCError.parseError, message: "the body is not JSON (\(error)); send one JSON-RPC 2.0 message as a JSON object")
        }
        return try decode(value)
    }

    /// Reads one message from a parsed JSON value (see `decode(_:)` for the errors).
    public static func decode(_ value: JSONValue) throws(JSONRPCError) -> JSONRPCMessage {
        func invalid(_ why: String, id: JSONValue? = nil) -> JSONRPCError {
            JSONRPCError(code: JSONRPCError.invalidRequest, message: "not a JSON-RPC 2.0 message: \(why)", data: id)
        }
        if value.arrayValue != nil {
            throw invalid("batches are not supported (MCP 2025-06-18 removed them); send one message per request")
        }
        guard let o = value.objectValue else { throw invalid("expected an object, got \(value.typeDescription)") }
        let rawId = o["id"]
        guard o["jsonrpc"]?.stringValue == "2.0" else { throw invalid("\"jsonrpc\" must be \"2.0\"", id: rawId) }
        let id: JSONRPCId?
        if let rawId, !rawId.isNull {
            guard let parsed = JSONRPCId(rawId) else { throw invalid("\"id\" must be a string or an integer, got \(rawId.typeDescription)") }
            id = parsed
        } else {
            id = nil
        }
        if let methodValue = o["method"] {
            guard let method = methodValue.stringValue, !method.isEmpty else { throw invalid("\"method\" must be a non-empty string", id: rawId) }
            let params = o["params"]
            if let params, params.objectValue == nil, params.arrayValue == nil {
                throw invalid("\"params\" must be an object or an array, got \(params.typeDescription)", id: rawId)
            }
            if rawId != nil && id == nil { throw invalid("a request's \"id\" must not be null", id: nil) }
            return id.map { .request(id: $0, method: method, params: params) } ?? .notification(method: method, params: params)
        }
        switch (o["result"], o["error"]) {
        case (let result?, nil):
            guard let id else { throw invalid("a result needs the \"id\" of its request") }
            return .result(id: id, result: result)
        case (nil, let error?):
            guard let e = error.objectValue, let code = e["code"]?.intValue, let message = e["message"]?.stringValue else {
                throw invalid("\"error\" must be an object with an integer \"code\" and a string \"message\"", id: rawId)
            }
            return .error(id: id, error: JSONRPCError(code: code, message: message, data: e["data"]))
        case (.some, .some):
            throw invalid("a response has both \"result\" and \"error\"", id: rawId)
        case (nil, nil):
            throw invalid("it has neither \"method\" nor \"result\" nor \"error\"", id: rawId)
        }
    }
}
