/// How `skillgate chat` finds its server and token when they are not given.
public enum ChatDefaults {
    /// The environment variable read when `--token` is absent.
    public static let tokenVariable = "SKILLGATE_TOKEN"

    /// The base URL for a gateway listening on `host:port`: a wildcard address becomes the loopback
    /// one (`0.0.0.0` → `127.0.0.1`, `::` → `[::1]`), IPv6 literals get brackets.
    public static func baseURL(host: String, port: Int) -> String {
        var h = host
        if h.hasPrefix("[") && h.hasSuffix("]") { h = String(h.dropFirst().dropLast()) }
        switch h {
        case "0.0.0.0", "": h = "127.0.0.1"
        case "::", "::0": h = "::1"
        default: break
        }
        return h.contains(":") ? "http://[\(h)]:\(port)" : "http://\(h):\(port)"
    }

    /// The token from `--token`, else from `SKILLGATE_TOKEN`; empty values count as missing.
    public static func token(option: String?, environment: [String: String]) -> String? {
        if let option, !option.isEmpty { return option }
        if let env = environment[tokenVariable], !env.isEmpty { return env }
        return nil
    }

    /// The error shown when no token was given.
    public static let missingTokenMessage = """
    skillgate chat needs a client token: pass --token TOKEN or set \(tokenVariable).
    Create one with `skillgate tokens create --name me` (add --config PATH if the gateway uses another config).
    """
}
