import Foundation
import SkillGateTestSupport
import Testing
@testable import SkillGateKeys

@Suite struct KeyStoreWriteTests {
    @Test func setReplaceRemoveAndReopen() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/keys.json"
            let store = try KeyStore(path: path)
            try store.set("OPENAI_API_KEY", secret: "sk-one-0123456789")
            try store.set("ANTHROPIC_API_KEY", secret: "sk-ant-0123456789")
            try store.set("OPENAI_API_KEY", secret: "sk-two-0123456789")
            try store.remove("ANTHROPIC_API_KEY")
            let reopened = try KeyStore(path: path)
            #expect(reopened.names == ["OPENAI_API_KEY"])
            #expect(reopened.secret(named: "OPENAI_API_KEY") == "sk-two-0123456789")
            #expect(reopened.secret(named: "ANTHROPIC_API_KEY") == nil)
            let text = String(decoding: try readBytes(path), as: UTF8.self)
            #expect(text == "{\n  \"version\": 1,\n  \"keys\": {\n    \"OPENAI_API_KEY\": \"sk-two-0123456789\"\n  }\n}\n")
        }
    }

    @Test func removingAnUnknownKeyNamesIt() throws {
        try withTemporaryDirectory { dir in
            let store = try KeyStore(path: dir + "/keys.json")
            let error = #expect(throws: KeyStoreError.self) { try store.remove("GEMINI_API_KEY") }
            #expect(error.map(String.init(describing:))?.contains("no key named GEMINI_API_KEY") == true)
        }
    }

    @Test(arguments: ["", "openai_api_key", "OPENAI-KEY", String(repeating: "A", count: 65), "sk-proj-abc123", "A B"])
    func invalidNamesAreRefusedWithoutBeingRepeated(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let store = try KeyStore(path: dir + "/keys.json")
            let error = #expect(throws: KeyStoreError.self) { try store.set(name, secret: "sk-secret-value-123456") }
            let text = error.map(String.init(describing:)) ?? ""
            #expect(text.contains("A-Z, 0-9 and _"))
            if !name.isEmpty { #expect(!text.contains(name)) }
        }
    }

    /// A secret holding a control character (a NUL, a CR that would end a header line, an escape) or a space is refused
    /// when it is set, naming the character, never the secret (decision 0096).
    @Test(arguments: [("a\u{0}b", "the control character 0x00 at byte 2"), ("sk-abc\rX-Injected: yes", "the control character 0x0D at byte 7"),
                      ("sk-abc\u{1}def", "the control character 0x01 at byte 7"), ("sk abc", "a space at byte 3"),
                      ("sk-abc\u{7F}", "the control character 0x7F at byte 7")])
    func aSecretWithAControlCharacterIsRefused(_ secret: String, _ says: String) throws {
        try withTemporaryDirectory { dir in
            let store = try KeyStore(path: dir + "/keys.json")
            do {
                try store.set("A", secret: secret)
                Issue.record("stored")
            } catch let error as KeyStoreError {
                #expect(error.description.contains("the secret for A holds \(says)"), "\(error.description)")
                #expect(!error.description.contains("abc"))
            }
            #expect(store.listMasked().isEmpty)
            try store.set("A", secret: "sk-proj-Ab_9.+/=~")
        }
    }

    @Test func emptySecretIsRefused() throws {
        try withTemporaryDirectory { dir in
            let store = try KeyStore(path: dir + "/keys.json")
            #expect(throws: KeyStoreError.emptySecret(name: "A")) { try store.set("A", secret: "") }
        }
    }

    @Test func aCrashedWritersTempFileIsIgnoredAndCleanedUp() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/keys.json"
            let store = try KeyStore(path: path)
            try store.set("A", secret: "sk-old-0123456789")
            let before = try readBytes(path)
            // Simulate a crash: a writer wrote (part of) its temp file and died before the rename.
            let writer = AtomicFileWriter(target: path)
            let full = KeyFileCodec.encode(["A": "sk-new-0123456789", "B": "sk-bbb-0123456789"])
            _ = try writer.writeTemporary(Array(full.prefix(full.count / 2)))
            _ = try writer.writeTemporary(full)
            let leftovers = { try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".keys.json.tmp-") } }
            #expect(try leftovers().count == 2)

            #expect(try readBytes(path) == before)
            #expect(try store.reloadIfChanged() == false)
            let reopened = try KeyStore(path: path)
            #expect(reopened.names == ["A"])
            #expect(reopened.secret(named: "A") == "sk-old-0123456789")

            try reopened.set("C", secret: "sk-ccc-0123456789")
            #expect(try leftovers().isEmpty)
            #expect(try KeyStore(path: path).names == ["A", "C"])
        }
    }

    /// An interrupted write leaves a temp file holding secrets; opening the store removes it
    /// (no write needed), and leaves files that only look similar alone.
    @Test func openingTheStoreRemovesATempFileAnInterruptedWriteLeftBehind() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/keys.json"
            try KeyStore(path: path).set("A", secret: "sk-old-0123456789")
            let writer = AtomicFileWriter(target: path)
            let left = try writer.writeTemporary(KeyFileCodec.encode(["A": "sk-new-0123456789"])).path
            #expect(mode(of: left) == 0o600, "a temp file is private from its creation")
            let similar = [".keys.json.tmp-notes", ".keys.json.tmp-12-xyz", ".keys.json.tmp-12-0123456789abc", "keys.json.tmp-1-ab", ".keys.json.tmp-1-AB"]
            for name in similar { try writeFile(dir + "/" + name, "keep", mode: 0o600) }

            let reopened = try KeyStore(path: path)
            #expect(reopened.secret(named: "A") == "sk-old-0123456789")
            #expect(!FileManager.default.fileExists(atPath: left))
            for name in similar { #expect(FileManager.default.fileExists(atPath: dir + "/" + name), "\(name) is not a temp file of the store") }
        }
    }

    /// While another writer holds the lock, its fresh temp file is its own: only a stale one goes.
    @Test func aLiveWritersTempFileStaysUntilItIsStale() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/keys.json"
            try KeyStore(path: path).set("A", secret: "sk-old-0123456789")
            let writer = AtomicFileWriter(target: path)
            let fresh = try writer.writeTemporary(KeyFileCodec.encode(["A": "sk-1-0123456789"])).path
            let stale = try writer.writeTemporary(KeyFileCodec.encode(["A": "sk-2-0123456789"])).path
            var times = [timeval(tv_sec: time(nil) - 600, tv_usec: 0), timeval(tv_sec: time(nil) - 600, tv_usec: 0)]
            #expect(utimes(stale, &times) == 0)
            // Another process's writer: a second open file description conflicts with our flock.
            let fd = open(writer.lockPath, O_RDWR)
            #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
            defer { flock(fd, LOCK_UN); close(fd) }

            _ = try KeyStore(path: path)
            #expect(FileManager.default.fileExists(atPath: fresh))
            #expect(!FileManager.default.fileExists(atPath: stale))
        }
    }

    @Test(arguments: [(".keys.json.tmp-4242-0a1b2c3d4e5f", true), (".keys.json.tmp-1-a", true), (".keys.json.tmp-4242-", false),
                      (".keys.json.tmp--0a1b", false), (".keys.json.tmp-12x-0a", false), (".keys.json.tmp-1-0a1b2c3d4e5f6", false),
                      (".keys.json.tmp-1-0A", false), (".other.json.tmp-1-0a", false), (".keys.json.lock", false)])
    func onlyTheExactTempNamePatternIsALeftover(_ name: String, _ matches: Bool) {
        #expect(AtomicFileWriter(target: "/x/keys.json").isTemporaryName(name) == matches)
    }

    @Test func concurrentWritersInSeparateStoresLoseNothing() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/keys.json"
            let writers = 6, keysPerWriter = 8
            try await withThrowingTaskGroup(of: Void.self) { group in
                for w in 0..<writers {
                    group.addTask {
                        // A store per writer, like separate `skillgate keys set` processes.
                        let store = try KeyStore(path: path)
                        for k in 0..<keysPerWriter { try store.set("W\(w)_K\(k)", secret: "sk-\(w)-\(k)-0123456789") }
                    }
                }
                group.addTask {
                    // A reader meanwhile only ever sees complete files.
                    let reader = try KeyStore(path: path)
                    for _ in 0..<40 { _ = try reader.reloadIfChanged() }
                }
                try await group.waitForAll()
            }
            let final = try KeyStore(path: path)
            #expect(final.names.count == writers * keysPerWriter)
            #expect(final.secret(named: "W3_K5") == "sk-3-5-0123456789")
            #expect(mode(of: path) == 0o600)
        }
    }

    @Test func concurrentTasksSharingOneStoreLoseNothing() async throws {
        try await withTemporaryDirectory { dir in
            let store = try KeyStore(path: dir + "/keys.json")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for t in 0..<8 {
                    group.addTask { for k in 0..<5 { try store.set("T\(t)_K\(k)", secret: "sk-\(t)-\(k)-0123456789") } }
                }
                try await group.waitForAll()
            }
            #expect(store.names.count == 40)
            #expect(try KeyStore(path: dir + "/keys.json").names == store.names)
        }
    }

    @Test func reloadIfChangedSeesOtherWritersAndHandEdits() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/keys.json"
            let server = try KeyStore(path: path)
            #expect(try server.reloadIfChanged() == false)
            let cli = try KeyStore(path: path)
            try cli.set("A", secret: "sk-aaa-0123456789")
            #expect(try server.reloadIfChanged() == true)
            #expect(server.secret(named: "A") == "sk-aaa-0123456789")
            #expect(try server.reloadIfChanged() == false)
            try server.set("B", secret: "sk-bbb-0123456789")
            #expect(try server.reloadIfChanged() == false, "its own write is not a change")

            // An edit in place (same inode, different size).
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(#"{"version":1,"keys":{"A":"sk-edited-0123456789"}}"#.utf8))
            try handle.close()
            #expect(try server.reloadIfChanged() == true)
            #expect(server.names == ["A"])
            #expect(server.secret(named: "A") == "sk-edited-0123456789")

            try FileManager.default.removeItem(atPath: path)
            #expect(try server.reloadIfChanged() == true)
            #expect(server.names.isEmpty)
        }
    }

    @Test(arguments: [
        (#"{"version":2,"keys":{}}"#, "version 2"),
        (#"{"keys":{}}"#, "\"version\" is missing"),
        (#"{"version":1,"keys":[]}"#, "\"keys\" is not a JSON object"),
        (#"{"version":1,"keys":{"A":5}}"#, "value of A is not a string"),
        (#"{"version":1,"keys":{"bad-name":"x"}}"#, "entry 1"),
        ("[1]", "top level"),
    ])
    func malformedFilesAreRefusedWithTheProblem(_ text: String, _ expected: String) throws {
        try withTemporaryDirectory { dir in
            try writeFile(dir + "/keys.json", text, mode: 0o600)
            let error = #expect(throws: KeyStoreError.self) { try KeyStore(path: dir + "/keys.json") }
            #expect(error.map(String.init(describing:))?.contains(expected) == true)
        }
    }
}
