import SkillGateCore
import SkillGateSkills

/// `server_skills`: which built-in skills run, `http_get`'s allowlist and caps, and webhook skills.
///
/// ```json
/// "server_skills": {
///   "builtin": ["current_time", "calculator", "notes", "http_get"],
///   "notes": {"max_per_token": 1000},
///   "http_get": {"allowed_hosts": ["example.com", "*.wikipedia.org"], "max_bytes": 262144, "timeout_seconds": 10},
///   "webhooks": {"create_ticket": {"description": "...", "url": "https://crm.example.com/hooks/ticket",
///                "headers": {"Authorization": "Bearer ${secret:CRM_KEY}"}, "parameters": {"type": "object", ...}}}
/// }
/// ```
public struct ServerSkillsConfig: Sendable, Hashable {
    /// The built-in skill groups that can be enabled; `notes` adds save_note, search_notes, list_notes and delete_note.
    public static let builtinNames = ["current_time", "calculator", "notes", "http_get"]

    /// Enabled built-ins, in config order.
    public var builtin: [String]
    /// `http_get` settings; required when `builtin` lists `http_get`.
    public var httpGet: HTTPGetConfig?
    /// Webhook skills, sorted by name.
    public var webhooks: [WebhookSkillConfig]
    /// The most notes one token keeps (`notes.max_per_token`; default `NotesSkills.maxNotesPerOwner`).
    public var maxNotesPerToken: Int
    /// How long one notes call may take (`notes.timeout_seconds`; default `NotesSkills.defaultTimeout`): a notes store
    /// on a distant or busy PostgreSQL may need more than the default.
    public var notesTimeout: Duration

    public init(builtin: [String] = [], httpGet: HTTPGetConfig? = nil, webhooks: [WebhookSkillConfig] = [],
                maxNotesPerToken: Int = NotesSkills.maxNotesPerOwner, notesTimeout: Duration = NotesSkills.defaultTimeout) {
        self.builtin = builtin
        self.httpGet = httpGet
        self.webhooks = webhooks
        self.maxNotesPerToken = maxNotesPerToken
        self.notesTimeout = notesTimeout
    }

    /// The tool names these settings register (what `skill_packs` may list to expose them).
    public var skillNames: [String] {
        builtin.flatMap { $0 == "notes" ? NotesSkills.names : [$0] } + webhooks.map(\.name)
    }

    init(reader: JSONReader?) throws(JSONShapeError) {
        self.init()
        guard let r = reader else { return }
        try r.rejectUnknownKeys(["builtin", "http_get", "notes", "webhooks", "$comment"])
        builtin = try r.optionalStringArray("builtin") ?? []
        for (i, name) in builtin.enumerated() {
            guard Self.builtinNames.contains(name) else {
                throw r.error("builtin[\(i)]", "\"\(name)\" is not a built-in skill; choose from \(Self.builtinNames.joined(separator: ", "))")
            }
            if builtin[..<i].contains(name) { throw r.error("builtin[\(i)]", "\"\(name)\" is listed twice; remove one") }
        }
        if let h = try r.optionalObject("http_get") {
            guard builtin.contains("http_get") else {
                throw r.error("http_get", "has no effect unless \"builtin\" lists \"http_get\"; add it there or remove this block")
            }
            httpGet = try Self.parseHTTPGet(h)
        } else if builtin.contains("http_get") {
            throw r.error("builtin", "lists \"http_get\", which needs an allowlist: add \"http_get\": {\"allowed_hosts\": [\"example.com\"]}")
        }
        if let n = try r.optionalObject("notes") {
            guard builtin.contains("notes") else {
                throw r.error("notes", "has no effect unless \"builtin\" lists \"notes\"; add it there or remove this block")
            }
            (maxNotesPerToken, notesTimeout) = try Self.parseNotes(n)
        }
        for (name, w) in try r.optionalObjectMap("webhooks") ?? [] {
            webhooks.append(try Self.parseWebhook(name, w, reserved: skillNames))
        }
        webhooks.sort { $0.name < $1.name }
    }

    private static func parseHTTPGet(_ h: JSONReader) throws(JSONShapeError) -> HTTPGetConfig {
        try h.rejectUnknownKeys(["allowed_hosts", "max_bytes", "max_text_chars", "timeout_seconds", "allow_private", "private_allowlist", "$comment"])
        let hosts = try h.optionalStringArray("allowed_hosts") ?? []
        guard !hosts.isEmpty else { throw h.error("allowed_hosts", "is missing or empty; list the hosts http_get may fetch (\"example.com\" or \"*.example.com\")") }
        for (i, host) in hosts.enumerated() where host.isEmpty || host.contains("/") || host.contains(":") || (host.contains("*") && !(host.hasPrefix("*.") && host.dropFirst(2).allSatisfy { $0 != "*" })) {
            throw h.error("allowed_hosts[\(i)]", "\"\(host)\" is not a host name or \"*.suffix\"; write only the host (no scheme, port or path)")
        }
        return HTTPGetConfig(allowedHosts: hosts, maxBytes: try positive(h, "max_bytes") ?? 262_144,
                             maxTextCharacters: try positive(h, "max_text_chars") ?? 8_000,
                             timeout: .seconds(try positive(h, "timeout_seconds") ?? 10), addressPolicy: try policy(h))
    }

    /// `notes.max_per_token`: a whole number from 1 to `NotesSkills.maxNotesPerOwnerLimit`; `notes.timeout_seconds`: 1
    /// to 60.
    private static func parseNotes(_ n: JSONReader) throws(JSONShapeError) -> (maxPerToken: Int, timeout: Duration) {
        try n.rejectUnknownKeys(["max_per_token", "timeout_seconds", "$comment"])
        var timeout = NotesSkills.defaultTimeout
        if let seconds = try n.optionalInt("timeout_seconds") {
            guard (1...60).contains(seconds) else {
                throw n.error("timeout_seconds", "must be 1 to 60 seconds (how long one notes call may take), got \(seconds); the default is \(NotesSkills.defaultTimeout.components.seconds)")
            }
            timeout = .seconds(seconds)
        }
        guard let v = try n.optionalInt("max_per_token") else { return (NotesSkills.maxNotesPerOwner, timeout) }
        let limit = NotesSkills.maxNotesPerOwnerLimit
        guard (1...limit).contains(v) else {
            throw n.error("max_per_token", "must be a whole number from 1 to \(limit) (search_notes reads all of a token's notes), got \(v); the default is \(NotesSkills.maxNotesPerOwner)")
        }
        return (v, timeout)
    }

    private static func parseWebhook(_ name: String, _ w: JSONReader, reserved: [String]) throws(JSONShapeError) -> WebhookSkillConfig {
        try w.rejectUnknownKeys(["description", "parameters", "url", "method", "headers", "timeout_seconds", "max_response_bytes",
                                 "requires_confirmation", "read_only", "allow_private", "private_allowlist", "$comment"])
        guard SkillPack.isValidSkillName(name) else { throw w.error(nil, "\"\(name)\" is not a valid skill name (1-64 characters: letters, digits, _ and -)") }
        guard !reserved.contains(name) else { throw w.error(nil, "\"\(name)\" is already the name of a built-in skill; rename the webhook") }
        let url = try w.string("url")
        do { _ = try OutboundURL(url) } catch { throw w.error("url", "\(error.message)") }
        let method = (try w.optionalEnum("method", ["POST", "PUT", "PATCH", "GET", "DELETE"])) ?? "POST"
        var parameters: JSONValue = ["type": "object"]
        if let p = try w.optionalObject("parameters") {
            parameters = .object(p.object)
            guard parameters["type"]?.stringValue == "object" else { throw w.error("parameters", "must be a JSON Schema with \"type\": \"object\"") }
        }
        let headers = try w.optionalStringMap("headers") ?? []
        return WebhookSkillConfig(name: name, description: try w.string("description"), parameters: parameters, url: url, method: method,
                                  headers: headers, timeout: .seconds(try positive(w, "timeout_seconds") ?? 10),
                                  maxResponseBytes: try positive(w, "max_response_bytes") ?? 16_384,
                                  requiresConfirmation: try w.optionalBool("requires_confirmation") ?? false,
                                  readOnly: try w.optionalBool("read_only") ?? false, addressPolicy: try policy(w))
    }

    private static func positive(_ r: JSONReader, _ key: String) throws(JSONShapeError) -> Int? {
        guard let v = try r.optionalInt(key) else { return nil }
        guard v > 0 else { throw r.error(key, "must be a positive integer, got \(v)") }
        return v
    }

    private static func policy(_ r: JSONReader) throws(JSONShapeError) -> AddressPolicy {
        AddressPolicy(allowPrivate: try r.optionalBool("allow_private") ?? false, exceptions: try r.optionalStringArray("private_allowlist") ?? [])
    }
}
