import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateKeys
import SkillGateProviders
import SkillGateServer

/// `skillgate providers`: the catalog, and whether each provider's key is set.
enum ProvidersCommand {
    static let help = """
    Usage: skillgate providers [--config PATH]

    Lists every provider of the catalog with its wire format, key status and models
    (tier, price per million input/output tokens; embedding models with their dimensions).
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, options: ["--config"], flags: [])
        if args.wantsHelp { print(help); return 0 }
        let config = try CLI.loadConfig(args)
        let catalog = try ProviderCatalog.load(directory: config.providersDirectory)
        let keys = try KeyStore(path: config.keyFile)
        for p in catalog.providers {
            let override = config.providerOverrides[p.id]
            let keyName = override?.keyName ?? p.keyName
            let keyStatus: String
            if p.auth == .none { keyStatus = "no key needed" } else if let keyName {
                let pool = keys.pool(named: keyName).count
                keyStatus = pool > 1 ? "keys \(keyName) set (a pool of \(pool))"
                    : pool == 1 ? "key \(keyName) set" : "key \(keyName) NOT set (skillgate keys set \(keyName))"
            } else { keyStatus = "no key name" }
            let state = config.isEnabled(p) ? "" : override != nil ? "\tdisabled" : "\tnot served (keyless: name it in the config)"
            print("\(p.id)\t\(p.wireFormat.rawValue)\t\(override?.baseURL ?? p.baseURL)\t\(keyStatus)\(state)")
            for m in p.models {
                if m.kind == .embedding {
                    let price = m.price.map { CFormat.string("$%.2f", $0.inputPerMTok) } ?? "local"
                    print("  \(p.id)/\(m.id)\tembedding\t\(m.dimensions ?? 0) dimensions\t\(price)")
                    continue
                }
                let price = m.price.map { CFormat.string("$%.2f/$%.2f", $0.inputPerMTok, $0.outputPerMTok) } ?? "local"
                print("  \(p.id)/\(m.id)\t\(m.tier.rawValue)\t\(m.tools.rawValue) tools\t\(price)")
            }
        }
        return 0
    }
}
