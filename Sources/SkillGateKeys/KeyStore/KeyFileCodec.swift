import SkillGateCore

/// Reads and writes the key file: `{"version":1,"keys":{"OPENAI_API_KEY":"sk-..."}}`.
enum KeyFileCodec {
    /// The only file format version so far.
    static let version = 1

    /// The keys in `bytes`. Errors name the problem and never quote the file's content.
    static func decode(_ bytes: [UInt8], path: String) throws(KeyStoreError) -> [String: String] {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            // The parser's reason may quote a character of a secret; keep only the offset.
            throw .malformedFile(path: path, detail: "it is not valid JSON (error at byte \(error.offset))")
        }
        guard let root = document.objectValue else {
            throw .malformedFile(path: path, detail: "the top level is not a JSON object")
        }
        guard let version = root["version"]?.intValue else {
            throw .malformedFile(path: path, detail: "\"version\" is missing or not an integer")
        }
        guard version == Self.version else {
            throw .malformedFile(path: path, detail: "version \(version) is not supported (this SkillGate reads version 1)")
        }
        guard let entries = (root["keys"] ?? .object(JSONObject())).objectValue else {
            throw .malformedFile(path: path, detail: "\"keys\" is not a JSON object")
        }
        var keys: [String: String] = [:]
        for (position, member) in entries.enumerated() {
            guard KeyName.isValid(member.key) else {
                throw .malformedFile(path: path, detail: "entry \(position + 1) of \"keys\" has a name that is not [A-Z0-9_]{1,64}")
            }
            guard let secret = member.value.stringValue else {
                throw .malformedFile(path: path, detail: "the value of \(member.key) is not a string")
            }
            keys[member.key] = secret
        }
        return keys
    }

    /// The file's bytes for `keys`: indented, names sorted, ending in a newline, easy to diff and edit.
    static func encode(_ keys: [String: String]) -> [UInt8] {
        var out = Array("{\n  \"version\": \(version),\n  \"keys\": {".utf8)
        for (i, name) in keys.keys.sorted().enumerated() {
            out.append(contentsOf: Array((i == 0 ? "\n    " : ",\n    ").utf8))
            JSONValue.writeString(name, to: &out)
            out.append(contentsOf: Array(": ".utf8))
            JSONValue.writeString(keys[name] ?? "", to: &out)
        }
        out.append(contentsOf: Array((keys.isEmpty ? "}\n}\n" : "\n  }\n}\n").utf8))
        return out
    }
}
