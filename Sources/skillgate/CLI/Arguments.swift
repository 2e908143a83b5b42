/// A usage error: wrong or missing arguments. Exit code 2.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Parsed command-line arguments: positionals, repeatable `--option value`s, and flags.
struct Arguments {
    var positionals: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []

    /// Parses `args` knowing which options take a value and which are flags. `--opt=value` works too.
    init(_ args: [String], options valued: Set<String>, flags known: Set<String>) throws {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" {
                positionals += args[(i + 1)...]
                break
            }
            if a.hasPrefix("--") || (a.hasPrefix("-") && a.count == 2 && a != "-") {
                var name = a
                var inlineValue: String?
                if let eq = a.firstIndex(of: "=") {
                    name = String(a[..<eq])
                    inlineValue = String(a[a.index(after: eq)...])
                }
                if name == "-h" { name = "--help" }
                if valued.contains(name) {
                    guard let value = inlineValue ?? (i + 1 < args.count ? args[i + 1] : nil) else {
                        throw UsageError(message: "\(name) needs a value")
                    }
                    if inlineValue == nil { i += 1 }
                    options[name, default: []].append(value)
                } else if known.contains(name) || name == "--help" {
                    flags.insert(name)
                } else {
                    throw UsageError(message: "unknown option \(name)")
                }
            } else {
                positionals.append(a)
            }
            i += 1
        }
    }

    func value(_ name: String) -> String? { options[name]?.last }
    func values(_ name: String) -> [String] { options[name] ?? [] }
    var wantsHelp: Bool { flags.contains("--help") }
}
