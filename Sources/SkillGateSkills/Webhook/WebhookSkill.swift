import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateHTTP

/// A skill that POSTs its validated arguments as JSON to a configured URL and gives the response
/// body to the model. Secret header values are resolved per call and never logged or returned.
public struct WebhookSkill: Skill {
    public let config: WebhookSkillConfig
    public var id: String { "webhook.\(config.name)" }
    public var name: String { config.name }
    public var description: String { config.description }
    public var parameters: JSONValue { config.parameters }
    public let version = "1.0"
    public var timeout: Duration { config.timeout + .seconds(1) }
    public var requiresConfirmation: Bool { config.requiresConfirmation }
    /// Open world (another service); read-only when the config says `read_only`, else destructive — said outright
    /// rather than left to the spec's default, since a client that reads a missing hint as false would run it unasked.
    public var annotations: SkillAnnotations {
        config.readOnly ? SkillAnnotations(readOnly: true, openWorld: true)
            : SkillAnnotations(readOnly: false, destructive: true, openWorld: true)
    }
    let client: GuardedHTTP
    let secrets: @Sendable (String) -> String?

    /// `secrets` looks a key-store secret up by name (`KeyStore.secret(named:)`).
    public init(config: WebhookSkillConfig, client: GuardedHTTP, secrets: @escaping @Sendable (String) -> String?) {
        self.config = config
        self.client = client
        self.secrets = secrets
    }

    public func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        var used: [String] = []
        do {
            var url = try OutboundURL(config.url)
            var headers = HTTPHeaders()
            for (field, template) in config.headers {
                let expanded = try SecretTemplate.expand(template, secrets: secrets)
                used += expanded.used
                headers.add(field, expanded.text)
            }
            let method = config.method.uppercased()
            var body: [UInt8] = []
            if method == "GET" {
                url.pathAndQuery += WebhookQuery.encode(arguments, after: url.pathAndQuery)
            } else {
                body = arguments.serializedBytes()
                if headers["Content-Type"] == nil { headers.add("Content-Type", "application/json") }
            }
            if headers["Accept"] == nil { headers.add("Accept", "application/json, text/plain;q=0.9, */*;q=0.5") }
            headers.add("X-SkillGate-Request-Id", context.requestId)
            let response = try await client.send(method: method, url: url, headers: headers, body: body, policy: config.addressPolicy,
                                                 timeout: config.timeout, maxBytes: config.maxResponseBytes)
            var text = SecretTemplate.redact(String(decoding: response.body, as: UTF8.self), used)
            if response.truncated { text += "\n[response truncated at \(config.maxResponseBytes) bytes]" }
            let payload: JSONValue = ["status": .int(response.status), "truncated": .bool(response.truncated)]
            guard (200..<300).contains(response.status) else {
                let snippet = text.isEmpty ? "" : ": " + String(text.prefix(1000))
                return SkillResult(text: "\(name) failed with HTTP status \(response.status)\(snippet)", payload: payload, isError: true)
            }
            return SkillResult(text: text.isEmpty ? "(\(name) returned HTTP \(response.status) with an empty body)" : text, payload: payload)
        } catch {
            return SkillResult(text: "\(name) could not be called: " + SecretTemplate.redact(error.message, used), isError: true)
        }
    }
}
