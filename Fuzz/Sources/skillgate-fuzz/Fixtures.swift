import Foundation
import SkillGateCore
import SkillGateHTTP

/// The recordings under Tests/ the seed corpora are made from (nothing outside the repository).
struct Fixtures {
    /// One recorded file.
    struct File {
        /// `openai`, `anthropic` or `gemini`.
        var provider: String
        var name: String
        var bytes: [UInt8]
    }

    var files: [File] = []

    init(repo: String) {
        for dir in ["Tests/Fixtures", "Tests/Conformance/recordings"] {
            for provider in ["openai", "anthropic", "gemini"] {
                let path = "\(repo)/\(dir)/\(provider)"
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                for name in names.sorted() where !name.hasSuffix(".md") {
                    guard let data = FileManager.default.contents(atPath: "\(path)/\(name)") else { continue }
                    files.append(File(provider: provider, name: name, bytes: Array(data)))
                }
            }
        }
    }

    /// Whether a file is a streamed body (SSE, or vercel/ai chunk lines).
    static func isStream(_ file: File) -> Bool {
        file.name.hasSuffix(".sse") || file.name.hasSuffix(".txt")
    }

    /// The raw SSE body of a streamed recording (`.chunks.txt` lines become `data:` events).
    static func sseBody(_ file: File) -> [UInt8] {
        guard file.name.hasSuffix(".chunks.txt") else { return file.bytes }
        var out: [UInt8] = []
        for line in file.bytes.split(separator: 0x0A) where !line.isEmpty {
            out += Array("data: ".utf8) + line + [0x0A, 0x0A]
        }
        return out
    }

    /// Streamed bodies of `provider` (all providers when `nil`).
    func streams(_ provider: String? = nil) -> [[UInt8]] {
        files.filter { Self.isStream($0) && (provider == nil || $0.provider == provider) }.map(Self.sseBody)
    }

    /// Whole JSON documents of `provider` whose name contains `marker` (all when empty).
    func documents(_ provider: String? = nil, containing marker: String = "") -> [[UInt8]] {
        files.filter { $0.name.hasSuffix(".json") && (provider == nil || $0.provider == provider)
            && (marker.isEmpty || $0.name.contains(marker)) }.map(\.bytes)
    }

    /// Every JSON text recorded: whole files and the data of every streamed event.
    func allJSON() -> [[UInt8]] {
        var out = documents()
        for body in streams() {
            var decoder = SSEDecoder()
            for event in decoder.feed(body) + decoder.finish() where !event.isDone { out.append(Array(event.data.utf8)) }
        }
        return out
    }

    /// Every JSON object found anywhere in the recordings, depth first (tool schemas, arguments, ...).
    func allObjects() -> [JSONValue] {
        var out: [JSONValue] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let o):
                out.append(value)
                for member in o { walk(member.value) }
            case .array(let a): a.forEach(walk)
            default: break
            }
        }
        for text in allJSON() { if let value = try? JSONValue.parse(text) { walk(value) } }
        return out
    }
}

/// Writes a seed corpus: one file per seed, named by its index.
struct SeedWriter {
    var repo: String
    var out: String

    func write(_ seeds: [[UInt8]]) -> Int {
        try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for (i, seed) in seeds.enumerated() {
            _ = FileManager.default.createFile(atPath: "\(out)/seed-\(String(format: "%04d", i))", contents: Data(seed))
        }
        return seeds.count
    }
}

/// `bytes` in chunked transfer coding, `piece` bytes a chunk, without the last chunk (seeds of the HTTP/1.1 targets).
func chunked(_ bytes: [UInt8], piece: Int) -> [UInt8] {
    var framed: [UInt8] = []
    var rest = bytes[...]
    while !rest.isEmpty {
        let part = rest.prefix(piece)
        framed += Array(String(part.count, radix: 16).utf8) + [13, 10] + part + [13, 10]
        rest = rest.dropFirst(part.count)
    }
    return framed
}
