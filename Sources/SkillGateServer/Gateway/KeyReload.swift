import SkillGateKeys
import Synchronization

/// Reloads the key file when it changed (on SIGHUP and every 2 s) and tells the log: each reload, and a failure once
/// until it changes (another error, or the file fixed) or a SIGHUP asks again; the keys in memory stay as they were
/// (decision 0137). A moved state file is told once the same way (decision 0099). Before, a broken key file was warned
/// about at every 2-second look, for as long as it stayed broken.
final class KeyReload: Sendable {
    private let keys: KeyStore
    private let log: RequestLog
    private let file: String
    /// The failure told last, until a reload succeeds.
    private let told = Mutex<String?>(nil)

    init(keys: KeyStore, log: RequestLog, file: String) {
        self.keys = keys
        self.log = log
        self.file = file
    }

    /// Reloads the file if it changed. `signalled`: a SIGHUP asked, so a failure is told even when it was told already.
    func run(signalled: Bool) {
        do {
            if try keys.reloadIfChanged() {
                told.locked { $0 = nil }
                log.event("keys reloaded", ["file": .string(file)])
            }
        } catch {
            let message = "\(error)"
            let tell = told.locked { last -> Bool in
                defer { last = message }
                return signalled || last != message
            }
            guard tell else { return }
            log.event("key reload failed; keeping the previous keys (told again when the error changes, or on SIGHUP)",
                      ["error": .string(message)], level: "warn")
        }
    }
}
