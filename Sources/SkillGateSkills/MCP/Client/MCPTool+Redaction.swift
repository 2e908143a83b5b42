import SkillGateCore

extension MCPTool {
    /// This tool with the `secrets` (the key-store secrets the transport gave the server) taken out of everything a
    /// model, a client or the log sees of it: its description, its input schema (descriptions, defaults, examples,
    /// keys) and its title. Nil when its name carries one: a name cannot be redacted, since `tools/call` must send it
    /// back as the server wrote it, so such a tool is not used (decision 0153).
    func redacting(_ secrets: [String]) -> MCPTool? {
        guard !secrets.isEmpty else { return self }
        guard SecretTemplate.redact(name, secrets) == name else { return nil }
        var tool = self
        tool.description = SecretTemplate.redact(description, secrets)
        tool.inputSchema = SecretTemplate.redact(inputSchema, secrets)
        tool.annotations.title = annotations.title.map { SecretTemplate.redact($0, secrets) }
        return tool
    }
}
