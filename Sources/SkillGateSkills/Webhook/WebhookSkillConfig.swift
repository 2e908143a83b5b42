import SkillGateCore

/// A webhook skill as configured (`server_skills.webhooks.NAME`).
public struct WebhookSkillConfig: Sendable, Hashable {
    public var name: String
    public var description: String
    /// JSON Schema of the arguments (default: an object with any properties).
    public var parameters: JSONValue
    /// The endpoint (`https://crm.example.com/hooks/ticket`).
    public var url: String
    /// `POST` (default), `PUT`, `PATCH`, `DELETE` or `GET` (GET sends the arguments as a query string, no body).
    public var method: String
    /// Header name and value; values may contain `${secret:NAME}` (resolved from the key store per call).
    public var headers: [(String, String)]
    public var timeout: Duration
    /// Longest response body given to the model; longer ones are cut with a note.
    public var maxResponseBytes: Int
    public var requiresConfirmation: Bool
    /// `read_only`: the operator says a call changes nothing at the endpoint (`/mcp` shows `readOnlyHint`; decision
    /// 0121). False by default, whatever the method: a GET endpoint may still change things.
    public var readOnly: Bool
    /// Which addresses the URL may resolve to.
    public var addressPolicy: AddressPolicy

    public init(name: String, description: String, parameters: JSONValue = ["type": "object"], url: String, method: String = "POST",
                headers: [(String, String)] = [], timeout: Duration = .seconds(10), maxResponseBytes: Int = 16_384,
                requiresConfirmation: Bool = false, readOnly: Bool = false, addressPolicy: AddressPolicy = .publicOnly) {
        self.name = name
        self.description = description
        self.parameters = parameters
        self.url = url
        self.method = method
        self.headers = headers
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.requiresConfirmation = requiresConfirmation
        self.readOnly = readOnly
        self.addressPolicy = addressPolicy
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.name == b.name && a.description == b.description && a.parameters == b.parameters && a.url == b.url && a.method == b.method
            && a.headers.map { [$0.0, $0.1] } == b.headers.map { [$0.0, $0.1] } && a.timeout == b.timeout
            && a.maxResponseBytes == b.maxResponseBytes && a.requiresConfirmation == b.requiresConfirmation
            && a.readOnly == b.readOnly && a.addressPolicy == b.addressPolicy
    }

    public func hash(into h: inout Hasher) { h.combine(name); h.combine(url) }
}
