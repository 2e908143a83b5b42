/// A configuration or catalog file that does not have the expected shape.
///
/// Names the file, the JSON path (`$.models[2].price.input_per_mtok`) and what was expected,
/// so the fix is obvious without reading code.
public struct JSONShapeError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var path: String
    public var message: String

    public init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String { "\(file): \(path): \(message)" }
}

/// Reads typed fields out of a JSON object while tracking the JSON path, for strict config
/// loading: wrong types and unknown keys are errors naming the file and path.
public struct JSONReader: Sendable {
    public let file: String
    public let path: String
    public let object: JSONObject

    /// A reader over the document's root, which must be an object.
    public init(root: JSONValue, file: String) throws(JSONShapeError) {
        guard case .object(let o) = root else {
            throw JSONShapeError(file: file, path: "$", message: "expected a JSON object at the top level, got \(root.typeDescription)")
        }
        self.init(object: o, file: file, path: "$")
    }

    public init(object: JSONObject, file: String, path: String) {
        self.object = object
        self.file = file
        self.path = path
    }

    /// An error at `key` below this reader's path.
    public func error(_ key: String?, _ message: String) -> JSONShapeError {
        JSONShapeError(file: file, path: key.map { "\(path).\($0)" } ?? path, message: message)
    }

    private func typed<T>(_ key: String, _ expected: String, _ extract: (JSONValue) -> T?) throws(JSONShapeError) -> T? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let t = extract(value) else { throw error(key, "expected \(expected), got \(value.typeDescription)") }
        return t
    }

    private func present<T>(_ key: String, _ value: T?) throws(JSONShapeError) -> T {
        guard let value else { throw error(key, "required field is missing") }
        return value
    }

    public func optionalString(_ key: String) throws(JSONShapeError) -> String? { try typed(key, "a string") { $0.stringValue } }
    public func string(_ key: String) throws(JSONShapeError) -> String { try present(key, optionalString(key)) }
    public func optionalBool(_ key: String) throws(JSONShapeError) -> Bool? { try typed(key, "true or false") { $0.boolValue } }
    public func optionalInt(_ key: String) throws(JSONShapeError) -> Int? { try typed(key, "an integer") { $0.intValue } }
    public func int(_ key: String) throws(JSONShapeError) -> Int { try present(key, optionalInt(key)) }
    public func optionalDouble(_ key: String) throws(JSONShapeError) -> Double? { try typed(key, "a number") { $0.doubleValue } }

    /// A string that must be one of `allowed`.
    public func optionalEnum(_ key: String, _ allowed: [String]) throws(JSONShapeError) -> String? {
        guard let s = try optionalString(key) else { return nil }
        guard allowed.contains(s) else {
            throw error(key, "expected one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(s)\"")
        }
        return s
    }

    public func optionalStringArray(_ key: String) throws(JSONShapeError) -> [String]? {
        guard let items = try typed(key, "an array of strings", { $0.arrayValue }) else { return nil }
        var out: [String] = []
        for (i, item) in items.enumerated() {
            guard let s = item.stringValue else {
                throw error("\(key)[\(i)]", "expected a string, got \(item.typeDescription)")
            }
            out.append(s)
        }
        return out
    }

    /// A nested object's reader, or `nil` when absent.
    public func optionalObject(_ key: String) throws(JSONShapeError) -> JSONReader? {
        guard let o = try typed(key, "an object", { $0.objectValue }) else { return nil }
        return JSONReader(object: o, file: file, path: "\(path).\(key)")
    }

    public func object(_ key: String) throws(JSONShapeError) -> JSONReader { try present(key, optionalObject(key)) }

    /// Readers for each element of an array of objects, or `nil` when absent.
    public func optionalObjectArray(_ key: String) throws(JSONShapeError) -> [JSONReader]? {
        guard let items = try typed(key, "an array", { $0.arrayValue }) else { return nil }
        var out: [JSONReader] = []
        for (i, item) in items.enumerated() {
            guard let o = item.objectValue else {
                throw error("\(key)[\(i)]", "expected an object, got \(item.typeDescription)")
            }
            out.append(JSONReader(object: o, file: file, path: "\(path).\(key)[\(i)]"))
        }
        return out
    }

    /// A `{ "name": "value" }` object of strings.
    public func optionalStringMap(_ key: String) throws(JSONShapeError) -> [(String, String)]? {
        guard let o = try typed(key, "an object", { $0.objectValue }) else { return nil }
        var out: [(String, String)] = []
        for m in o {
            guard let s = m.value.stringValue else {
                throw error("\(key).\(m.key)", "expected a string, got \(m.value.typeDescription)")
            }
            out.append((m.key, s))
        }
        return out
    }

    /// The `{ "name": {...} }` members of an object, each as a reader.
    public func optionalObjectMap(_ key: String) throws(JSONShapeError) -> [(String, JSONReader)]? {
        guard let o = try typed(key, "an object", { $0.objectValue }) else { return nil }
        var out: [(String, JSONReader)] = []
        for m in o {
            guard let inner = m.value.objectValue else {
                throw error("\(key).\(m.key)", "expected an object, got \(m.value.typeDescription)")
            }
            out.append((m.key, JSONReader(object: inner, file: file, path: "\(path).\(key).\(m.key)")))
        }
        return out
    }

    /// Fails on any key not in `known`, naming it and listing the known ones (catches typos).
    public func rejectUnknownKeys(_ known: Set<String>) throws(JSONShapeError) {
        for m in object where !known.contains(m.key) {
            throw error(m.key, "unknown key; expected one of: \(known.sorted().joined(separator: ", "))")
        }
    }
}
