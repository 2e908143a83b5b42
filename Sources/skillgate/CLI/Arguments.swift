/// A usage error: wrong or missing arguments. Exit code 2.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

import SkillGateKeys

/// Parsed command-line arguments: positionals, `--option value`s (some repeatable), and flags.
struct Arguments {
    var positionals: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []

    /// Parses `args` knowing which options take a value, which of those may be given several times (`values`), and
    /// which are flags. `--opt=value` works too. Any other option given twice is a usage error.
    ///
    /// A value that has the shape of a SkillGate token's text (`sgk_…`) is refused without being repeated, except in
    /// the options of `tokenTextIn` (decision 0153: `notes list --token sgk_…`, `tokens create --scenario sgk_…` quoted
    /// the token back in their messages).
    init(_ args: [String], options valued: Set<String>, repeatable: Set<String> = [], flags known: Set<String>,
         tokenTextIn: Set<String> = []) throws {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" {
                for rest in args[(i + 1)...] { try Self.refuseTokenText(rest, in: nil) }
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
                    // `--name --admin` is a value left out, not a token named `--admin` (decision 0137).
                    if inlineValue == nil, let option = Self.optionName(value), valued.contains(option) || known.contains(option) || option == "--help" {
                        throw UsageError(message: "\(name) needs a value (\(value) is an option)")
                    }
                    if inlineValue == nil { i += 1 }
                    // An option given twice counted by its last without a word (`--rpm 1 --rpm 2`); only the options
                    // that collect several values may repeat (decision 0096).
                    if options[name] != nil, !repeatable.contains(name) {
                        throw UsageError(message: "\(name) is given more than once; give it once")
                    }
                    if !tokenTextIn.contains(name) { try Self.refuseTokenText(value, in: name) }
                    options[name, default: []].append(value)
                } else if known.contains(name) || name == "--help" {
                    flags.insert(name)
                } else {
                    throw UsageError(message: "unknown option \(name)")
                }
            } else {
                try Self.refuseTokenText(a, in: nil)
                positionals.append(a)
            }
            i += 1
        }
    }

    /// Throws when `value`, given to `option` (nil: as a positional), has the shape of a token's text.
    private static func refuseTokenText(_ value: String, in option: String?) throws {
        guard value.hasPrefix(TokenFormat.prefix) else { return }
        throw UsageError(message: "a token's text (sgk_…) was given \(option.map { "to \($0) " } ?? "")where a name belongs (it is not repeated here); "
                         + "`skillgate tokens list` shows the names, and if the text was exposed, revoke that token and create a new one")
    }

    /// The option `word` names (`--rpm` for `--rpm=5`, `--help` for `-h`), or nil when it is not an option.
    private static func optionName(_ word: String) -> String? {
        if word == "-h" { return "--help" }
        guard word.hasPrefix("--"), word.count > 2 else { return nil }
        return word.firstIndex(of: "=").map { String(word[..<$0]) } ?? word
    }

    func value(_ name: String) -> String? { options[name]?.last }
    func values(_ name: String) -> [String] { options[name] ?? [] }
    var wantsHelp: Bool { flags.contains("--help") }
}
