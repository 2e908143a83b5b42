@testable import SkillGateCore

/// The readers the JSON tests hold side by side: the tree parser, and the cursor with any reader.
enum JSONTestReaders {
    static func viaParse(_ bytes: [UInt8]) -> Result<JSONValue, JSONSyntaxError> {
        Result { () throws(JSONSyntaxError) in try JSONValue.parse(bytes) }
    }

    static func viaCursor<R>(_ bytes: [UInt8], _ body: (inout JSONCursor) throws(JSONSyntaxError) -> R) -> Result<R, JSONSyntaxError> {
        bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) in try JSONCursor.read(buffer, body) }
        }
    }

    /// Reads every object and array, every string, bool and number with the cursor's typed
    /// readers, so each reading method meets each document; rebuilds the value to compare it
    /// with the parser's.
    static func rebuild(_ c: inout JSONCursor) throws(JSONSyntaxError) -> JSONValue {
        var members: [JSONObject.Member] = []
        if try c.readObject({ (c, key) throws(JSONSyntaxError) in
            members.append(.init(key: key.string, value: try rebuild(&c)))
        }) { return .object(JSONObject(members)) }
        var elements: [JSONValue] = []
        if try c.readArray({ (c) throws(JSONSyntaxError) in elements.append(try rebuild(&c)) }) { return .array(elements) }
        switch c.kind {
        case .string: return .string(try c.readString()!)
        case .bool: return .bool(try c.readBool()!)
        default: return try c.readValue()
        }
    }
}
