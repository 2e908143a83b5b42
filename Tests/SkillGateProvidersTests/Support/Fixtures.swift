import Foundation

/// Test fixtures under `Tests/Fixtures/` (byte-for-byte copies of the provider recordings the project started from; PROVENANCE.md in each folder).
enum Fixtures {
    /// The `Tests/Fixtures` directory of this checkout.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // SkillGateProvidersTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")

    /// The bytes of `relativePath` (e.g. `openai/test_parse_nothing.sse`).
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(relativePath)))
    }

    /// The bytes of `relativePath` from the repository's root (e.g. `Bench/proxy/request.json`).
    static func repositoryBytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(relativePath)))
    }

    /// The text of `relativePath`.
    static func text(_ relativePath: String) throws -> String {
        String(decoding: try bytes(relativePath), as: UTF8.self)
    }

    /// Rebuilds a raw SSE body from a vercel/ai `*.chunks.txt` file (one `data:` payload per line).
    /// With `namedEvents`, each event gets `event: <payload type>` as Anthropic sends it.
    static func sseFromChunks(_ relativePath: String, namedEvents: Bool = false, terminator: String? = nil) throws -> [UInt8] {
        var out = ""
        for line in try text(relativePath).split(separator: "\n", omittingEmptySubsequences: true) {
            if namedEvents, let type = eventType(of: String(line)) { out += "event: \(type)\n" }
            out += "data: \(line)\n\n"
        }
        if let terminator { out += "data: \(terminator)\n\n" }
        return Array(out.utf8)
    }

    private static func eventType(of json: String) -> String? {
        guard let data = json.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["type"] as? String
    }
}
