import SkillGateCore

/// The web console (`console`; decision 0030).
extension GatewayConfig {
    /// The top-level keys this file reads.
    static let consoleKeys: Set<String> = ["console"]

    /// `console`: whether `/console` is served, and where its files are.
    public struct Console: Sendable, Hashable {
        /// `false`: `/console` answers 404 (the admin API stays, for scripts).
        public var enabled = true
        /// The directory of the console's files; relative paths resolve against the config file's directory.
        public var assetsDirectory: String
        public init(assetsDirectory: String) { self.assetsDirectory = assetsDirectory }
    }

    /// Reads `console`.
    static func parseConsole(_ r: JSONReader, resolve: (String) -> String) throws(JSONShapeError) -> Console {
        var console = Console(assetsDirectory: resolve("../Console"))
        guard let c = try r.optionalObject("console") else { return console }
        try c.rejectUnknownKeys(["enabled", "assets_dir", "$comment"])
        console.enabled = try c.optionalBool("enabled") ?? true
        if let dir = try c.optionalString("assets_dir") {
            guard !dir.isEmpty else { throw c.error("assets_dir", "is empty; give the directory of the console's files (the repository's Console/) or remove the key") }
            console.assetsDirectory = resolve(dir)
        }
        return console
    }
}
