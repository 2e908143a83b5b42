import SkillGateCore

/// A stdio MCP server written in `sh`, for tests that need a server's exact bytes: it answers `initialize`, lists
/// `tools` (their JSON array, as written), answers `tools/call` with `callResult` (a shell snippet that prints the result
/// object after the id), and `{}` to anything else. Returns the gateway config's `mcp_servers` entry named `name`.
enum ShellMCPServer {
    static func config(name: String, tools: String, callResult: String? = nil, extra: [String: JSONValue] = [:]) -> JSONValue {
        let call = callResult.map { #"*'"method":"tools/call"'*) printf '{"jsonrpc":"2.0","id":%s,"result":' "$id"; \#($0); printf '}\n' ;;"# } ?? ""
        let script = #"""
        while IFS= read -r line; do
          id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p')
          [ -z "$id" ] && continue
          case "$line" in
            *'"method":"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"\#(name)","version":"1"}}}\n' "$id" ;;
            *'"method":"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":%s}}\n' "$id" '\#(tools)' ;;
            \#(call)
            *) printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id" ;;
          esac
        done
        """#
        var entry: JSONObject = ["command": "/bin/sh", "args": ["-c", .string(script)], "connect_timeout_seconds": 30]
        for (key, value) in extra.sorted(by: { $0.key < $1.key }) { entry.append(key, value) }
        return .object([name: .object(entry)])
    }
}
