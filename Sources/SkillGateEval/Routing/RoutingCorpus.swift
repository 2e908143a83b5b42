import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateRouting

/// The routing part of the evaluation corpus: `*.jsonl` files of `RoutingExample`s in one
/// directory (`Tests/Eval/routing`), each line with a fixed `split` (`dev` or `test`).
public struct RoutingCorpus: Sendable {
    public var examples: [RoutingExample]

    public init(examples: [RoutingExample]) {
        self.examples = examples
    }

    /// Reads every `*.jsonl` file of `directory`, in name order.
    public static func load(directory: String) throws -> RoutingCorpus {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jsonl") }.sorted() } catch {
            throw EvalError("cannot list \(directory): give the corpus directory with --corpus (the repository's is Tests/Eval/routing)")
        }
        guard !names.isEmpty else { throw EvalError("\(directory) has no .jsonl files; give the corpus directory with --corpus") }
        var examples: [RoutingExample] = []
        for name in names {
            let path = FilePath.join(directory, name)
            examples += try loadFile(path)
        }
        return RoutingCorpus(examples: examples)
    }

    /// Reads one JSON Lines file of labelled prompts.
    public static func loadFile(_ path: String) throws -> [RoutingExample] {
        guard let data = FileManager.default.contents(atPath: path) else { throw EvalError("cannot read \(path)") }
        return try RoutingExample.parseLines(Array(data), source: path)
    }

    /// The examples of `split` (`dev`, `test`, or `all`).
    public func split(_ name: String) throws -> [RoutingExample] {
        guard name != "all" else { return examples }
        guard name == "dev" || name == "test" else { throw EvalError("--split must be dev, test or all, got \"\(name)\"") }
        let chosen = examples.filter { $0.split == name }
        guard !chosen.isEmpty else { throw EvalError("no example has \"split\": \"\(name)\"") }
        return chosen
    }
}

/// A problem with the corpus or the evaluation's arguments, with what to do.
public struct EvalError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
