/// A tool the model may call: `{"type":"function","function":{"name","description"?,"parameters"?}}`.
public struct ChatTool: Codable, Sendable, Hashable {
    /// Always `function`.
    public var type: String
    public var function: Function

    /// A function tool; `parameters` is the JSON Schema of its arguments object.
    public init(name: String, description: String? = nil, parameters: JSONValue? = nil) {
        type = "function"
        function = Function(name: name, description: description, parameters: parameters)
    }

    /// The function a tool describes.
    public struct Function: Codable, Sendable, Hashable {
        /// `[a-zA-Z0-9_-]{1,64}`.
        public var name: String
        /// What it does, written for the model.
        public var description: String?
        /// JSON Schema of the arguments object.
        public var parameters: JSONValue?

        public init(name: String, description: String? = nil, parameters: JSONValue? = nil) {
            self.name = name
            self.description = description
            self.parameters = parameters
        }
    }
}

/// A call of a tool in an assistant message: `{"id","type":"function","function":{"name","arguments"}}`.
public struct ChatToolCall: Codable, Sendable, Hashable {
    /// The call's id; the `tool` message answering it carries the same as `toolCallId`.
    public var id: String
    /// Always `function`.
    public var type: String
    public var function: Function

    public init(id: String, name: String, arguments: String) {
        self.id = id
        type = "function"
        function = Function(name: name, arguments: arguments)
    }

    /// The function called and its arguments.
    public struct Function: Codable, Sendable, Hashable {
        public var name: String
        /// The arguments object as JSON text, as the model wrote it (`{"city":"Zurich"}`).
        public var arguments: String

        public init(name: String, arguments: String) {
            self.name = name
            self.arguments = arguments
        }
    }
}
