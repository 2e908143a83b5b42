import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

/// The provider catalog: every `Providers/*.json` file, validated.
///
/// A new OpenAI-compatible provider is one JSON file in the catalog directory and nothing else.
public struct ProviderCatalog: Sendable {
    /// Providers in id order.
    public private(set) var providers: [ProviderSpec]

    public init(providers: [ProviderSpec]) {
        self.providers = providers.sorted { $0.id < $1.id }
    }

    /// The provider with this id.
    public func provider(_ id: String) -> ProviderSpec? { providers.first { $0.id == id } }

    /// Resolves `provider/model` (the model id may itself contain slashes, as on OpenRouter).
    public func resolve(_ qualified: String) -> (provider: ProviderSpec, model: ModelSpec)? {
        guard let slash = qualified.firstIndex(of: "/") else { return nil }
        let pid = String(qualified[..<slash])
        let mid = String(qualified[qualified.index(after: slash)...])
        guard let p = provider(pid), let m = p.model(mid) else { return nil }
        return (p, m)
    }

    /// Loads every `*.json` file of `directory`. The first malformed file is refused with its
    /// file name and JSON path; a file whose `id` differs from its name is refused too.
    public static func load(directory: String) throws -> ProviderCatalog {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else {
            throw JSONShapeError(file: directory, path: "$", message: "cannot read the provider catalog directory; check the path (config key \"providers_dir\")")
        }
        var specs: [ProviderSpec] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = FilePath.join(directory, name)
            specs.append(try loadFile(path))
        }
        if specs.isEmpty {
            throw JSONShapeError(file: directory, path: "$", message: "no provider files (*.json) found in the catalog directory")
        }
        return ProviderCatalog(providers: specs)
    }

    /// Loads and validates one catalog file.
    public static func loadFile(_ path: String) throws -> ProviderSpec {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw JSONShapeError(file: path, path: "$", message: "cannot read the file")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(Array(data))
        } catch {
            throw JSONShapeError(file: path, path: "$", message: "\(error); fix the JSON syntax")
        }
        let spec = try ProviderSpec(json: json, file: path)
        let stem = FilePath.deletingExtension(FilePath.lastComponent(path))
        if spec.id != stem {
            throw JSONShapeError(file: path, path: "$.id", message: "the id \"\(spec.id)\" must match the file name \"\(stem).json\"")
        }
        return spec
    }
}
