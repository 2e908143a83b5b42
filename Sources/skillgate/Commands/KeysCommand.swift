import FoundationEssentials
import Glibc
import Dispatch
import SkillGateKeys
import SkillGateServer

/// `skillgate keys`: provider secrets in the key file.
enum KeysCommand {
    static let help = """
    Usage: skillgate keys set NAME      read the secret from stdin (no echo on a terminal), never from argv
           skillgate keys list          list key names with masked values
           skillgate keys remove NAME   delete a key
    Options: --config PATH

    The key file (config "key_file") is kept at mode 0600 in a 0700 directory. A running gateway picks
    up changes on SIGHUP and on its own within a few seconds.
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, options: ["--config"], flags: [])
        if args.wantsHelp || args.positionals.isEmpty { print(help); return args.wantsHelp ? 0 : 2 }
        let config = try CLI.loadConfig(args)
        let store = try KeyStore(path: config.keyFile)
        switch (args.positionals[0], args.positionals.count) {
        case ("set", 2):
            let name = args.positionals[1]
            // The name is checked before the prompt quotes it: a secret typed where the name belongs is refused
            // without being echoed to the terminal or a captured stderr (decision 0153).
            try KeyName.validate(name)
            let secret = try SecretInput.read(prompt: "Secret for \(name): ")
            try store.set(name, secret: secret)
            printErr("saved \(name) in \(config.keyFile)")
        case ("list", 1):
            let keys = store.listMasked()
            if keys.isEmpty { printErr("no keys yet; add one with `skillgate keys set NAME`") }
            for k in keys { print("\(k.name)\t\(k.masked)") }
        case ("remove", 2):
            try store.remove(args.positionals[1])
            printErr("removed \(args.positionals[1])")
        default:
            throw UsageError(message: "expected `keys set NAME`, `keys list` or `keys remove NAME`")
        }
        return 0
    }
}
