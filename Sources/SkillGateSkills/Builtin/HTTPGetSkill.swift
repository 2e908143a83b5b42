import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateHTTP

/// Settings of the `http_get` built-in (`server_skills.http_get`).
public struct HTTPGetConfig: Sendable, Hashable {
    /// Hosts the skill may fetch: exact names (`example.com`) or `*.suffix` (any subdomain of suffix).
    public var allowedHosts: [String]
    /// Most response bytes read.
    public var maxBytes: Int
    /// Most characters of text given to the model.
    public var maxTextCharacters: Int
    public var timeout: Duration
    public var addressPolicy: AddressPolicy
    /// Most redirects followed (each re-checked).
    public static let maxRedirects = 5

    public init(allowedHosts: [String], maxBytes: Int = 262_144, maxTextCharacters: Int = 8_000, timeout: Duration = .seconds(10),
                addressPolicy: AddressPolicy = .publicOnly) {
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
        self.maxBytes = maxBytes
        self.maxTextCharacters = maxTextCharacters
        self.timeout = timeout
        self.addressPolicy = addressPolicy
    }

    /// Whether `host` is on the allowlist.
    public func allows(_ host: String) -> Bool {
        let host = host.lowercased()
        return allowedHosts.contains { entry in
            entry.hasPrefix("*.") ? host.hasSuffix(entry.dropFirst(1)) && host.count > entry.count - 1 : host == entry
        }
    }
}

/// `http_get`: fetches a text page from an allowlisted host (redirects followed and re-checked).
public struct HTTPGetSkill: Skill {
    public let id = "builtin.http_get"
    public let name = "http_get"
    public var description: String {
        "Fetches a web page or API response by URL (GET) and returns its text (HTML tags removed). Only these hosts are allowed: \(config.allowedHosts.joined(separator: ", "))."
    }
    public let parameters: JSONValue = [
        "type": "object",
        "properties": ["url": ["type": "string", "description": "absolute http(s) URL"]],
        "required": ["url"],
        "additionalProperties": false,
    ]
    public let version = "1.0"
    public var timeout: Duration { config.timeout * 2 }
    public let requiresConfirmation = false
    public let annotations = SkillAnnotations.readOnly("Fetch a web page", openWorld: true)
    public let config: HTTPGetConfig
    let client: GuardedHTTP

    public init(config: HTTPGetConfig, client: GuardedHTTP) {
        self.config = config
        self.client = client
    }

    public func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        guard let text = arguments["url"]?.stringValue else { return SkillResult(text: "Missing \"url\".", isError: true) }
        do {
            var url = try OutboundURL(text)
            var hops = 0
            while true {
                guard config.allows(url.host) else {
                    throw OutboundError("host \"\(url.host)\" is not allowed" + (hops > 0 ? " (reached by a redirect)" : "") + "; allowed hosts: \(config.allowedHosts.joined(separator: ", "))")
                }
                let response = try await client.send(method: "GET", url: url, headers: ["Accept": "text/html, text/plain, application/json;q=0.9, */*;q=0.1"], body: [],
                                                     policy: config.addressPolicy, timeout: config.timeout, maxBytes: config.maxBytes)
                if (300..<400).contains(response.status), let location = response.headers["Location"] {
                    hops += 1
                    guard hops <= HTTPGetConfig.maxRedirects else { throw OutboundError("more than \(HTTPGetConfig.maxRedirects) redirects; giving up") }
                    url = try url.resolving(location)
                    continue
                }
                return try render(response)
            }
        } catch let error as OutboundError {
            return SkillResult(text: "http_get refused or failed: \(error.message)", isError: true)
        }
    }

    private func render(_ response: GuardedResponse) throws(OutboundError) -> SkillResult {
        let type = (response.headers["Content-Type"] ?? "text/plain").lowercased()
        let isText = type.hasPrefix("text/") || type.contains("json") || type.contains("xml") || type.contains("javascript")
        guard isText else { throw OutboundError("\(response.url.text) returned \(type), not text; only text, HTML and JSON are read") }
        var body = String(decoding: response.body, as: UTF8.self)
        if type.contains("html") { body = HTMLText.plain(body) }
        var notes: [String] = []
        if response.truncated { notes.append("response cut at \(config.maxBytes) bytes") }
        if body.count > config.maxTextCharacters {
            body = String(body.prefix(config.maxTextCharacters))
            notes.append("text cut at \(config.maxTextCharacters) characters")
        }
        if !notes.isEmpty { body += "\n[" + notes.joined(separator: "; ") + "]" }
        let payload: JSONValue = ["url": .string(response.url.text), "status": .int(response.status), "content_type": .string(type)]
        guard (200..<300).contains(response.status) else {
            return SkillResult(text: "HTTP \(response.status) from \(response.url.text): " + String(body.prefix(1000)), payload: payload, isError: true)
        }
        return SkillResult(text: body, payload: payload)
    }
}
