import Foundation
import SkillGateTestSupport
import Synchronization
import Testing
@testable import SkillGateKeys

@Suite struct KeyStorePermissionTests {
    /// A named pipe put at the key file's path (a secret manager's, or a mistaken swap) is refused at once as not a
    /// regular file (decision 0152). Before, `open` waited for a writer that never came, and with it `/readyz`, the key
    /// reloads and `skillgate keys list`, for good. The read runs on a thread of its own here, so a regression fails the
    /// test instead of hanging the suite; the pipe is then opened for writing, which lets a blocked reader go.
    @Test func aNamedPipeAtTheKeyFilesPathIsRefusedWithoutWaiting() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/keys.json"
            try writeFile(path, #"{"version":1,"keys":{"A":"sk-secret-value-123456"}}"#, mode: 0o600)
            let store = try KeyStore(path: path)
            #expect(unlink(path) == 0 && mkfifo(path, 0o600) == 0)
            let outcome = Mutex<String?>(nil)
            // The wait for the reading thread runs on a thread of its own too (`offThePool`), not on one of the shared
            // task pool's: a regression holds it for seconds.
            let answered = try await offThePool { () -> Bool in
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    do {
                        _ = try store.reloadIfChanged()
                        outcome.locked { $0 = "reloaded" }
                    } catch {
                        outcome.locked { $0 = "\(error)" }
                    }
                    done.signal()
                }
                let answered = done.wait(timeout: .now() + 5) == .success
                if !answered {
                    let writer = open(path, O_WRONLY | O_NONBLOCK)
                    if writer >= 0 { close(writer) }
                    _ = done.wait(timeout: .now() + 5)
                }
                return answered
            }
            #expect(answered, "reading a key file that is a named pipe waited for a writer")
            #expect(outcome.locked { $0 }?.contains("not a regular file") == true, "\(outcome.locked { $0 } ?? "nothing")")
            #expect(store.names == ["A"], "the keys in memory stay as they were")
        }
    }

    /// A key file of more than a MiB is refused without being read (decision 0152): one of a gigabyte was read whole at
    /// every `/readyz` and every 2-second look, 4 GB of memory at its peak.
    @Test func aKeyFileOfMoreThanAMebibyteIsRefusedUnread() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/keys.json"
            try writeFile(path, #"{"version":1,"keys":{"A":"sk-secret-value-123456"}}"#, mode: 0o600)
            let store = try KeyStore(path: path)
            #expect(truncate(path, 1 << 30) == 0, "a sparse gigabyte")
            let error = #expect(throws: KeyStoreError.self) { try store.reloadIfChanged() }
            #expect(error.map(String.init(describing:))?.contains("more than the 1 MiB") == true, "\(String(describing: error))")
            // Again, unchanged: the same refusal, from memory.
            #expect(throws: KeyStoreError.self) { try store.reloadIfChanged() }
            #expect(store.names == ["A"], "the keys in memory stay as they were")
        }
    }

    @Test func missingFileIsAnEmptyStoreAndTheFirstWriteCreatesPrivateModes() throws {
        try withTemporaryDirectory { tmp in
            let dir = tmp + "/config/skillgate"
            let path = dir + "/keys.json"
            let store = try KeyStore(path: path)
            #expect(store.names.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: dir), "reading must not create anything")
            try store.set("OPENAI_API_KEY", secret: "sk-test-0123456789abcdef")
            #expect(mode(of: path) == 0o600)
            #expect(mode(of: dir) == 0o700)
            #expect(try KeyStore(path: path).secret(named: "OPENAI_API_KEY") == "sk-test-0123456789abcdef")
        }
    }

    @Test(arguments: [0o640, 0o604, 0o644, 0o660, 0o602, 0o610] as [mode_t])
    func refusesAKeyFileGroupOrOthersCanReach(_ fileMode: mode_t) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/keys.json"
            try writeFile(path, #"{"version":1,"keys":{"A":"sk-secret-value-123456"}}"#, mode: fileMode)
            let error = #expect(throws: KeyStoreError.self) { try KeyStore(path: path) }
            let text = error.map(String.init(describing:)) ?? ""
            #expect(text.contains("chmod 600 \(path)"))
            #expect(text.contains(String(fileMode, radix: 8)))
            #expect(!text.contains("sk-secret"))
        }
    }

    @Test(arguments: [0o755, 0o750, 0o711, 0o701, 0o770] as [mode_t])
    func refusesAKeyDirectoryGroupOrOthersCanReach(_ dirMode: mode_t) throws {
        try withTemporaryDirectory { tmp in
            let dir = tmp + "/keys"
            #expect(mkdir(dir, 0o700) == 0)
            try writeFile(dir + "/keys.json", #"{"version":1,"keys":{}}"#, mode: 0o600)
            #expect(chmod(dir, dirMode) == 0)
            let error = #expect(throws: KeyStoreError.self) { try KeyStore(path: dir + "/keys.json") }
            #expect(error.map(String.init(describing:))?.contains("chmod 700 \(dir)") == true)
        }
    }

    @Test func writeIntoAnOpenDirectoryIsRefusedToo() throws {
        try withTemporaryDirectory { tmp in
            let dir = tmp + "/keys"
            #expect(mkdir(dir, 0o700) == 0)
            let store = try KeyStore(path: dir + "/keys.json")
            #expect(chmod(dir, 0o755) == 0)
            #expect(throws: KeyStoreError.insecureDirectory(path: dir, mode: UInt32(S_IFDIR) | 0o755)) {
                try store.set("A", secret: "sk-secret-value-123456")
            }
            #expect(!FileManager.default.fileExists(atPath: dir + "/keys.json"))
        }
    }

    @Test func reloadRefusesAFileThatBecameReadableAndKeepsTheOldKeys() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/keys.json"
            let store = try KeyStore(path: path)
            try store.set("A", secret: "sk-first-value-123456")
            try writeFile(path, #"{"version":1,"keys":{"A":"sk-second-value-123456"}}"#, mode: 0o644)
            #expect(throws: KeyStoreError.self) { try store.reloadIfChanged() }
            #expect(store.secret(named: "A") == "sk-first-value-123456")
        }
    }
}
