import Foundation
import SkillGateTestSupport
import Testing
@testable import SkillGateState

/// The state database is trusted only as the key file is: a plain file, SkillGate's user's own,
/// that nobody else can change, in a directory nobody else can use (decision 0023).
@Suite struct StateFileTrustTests {
    private func refusal(_ body: () throws -> Void) -> StateFileError? {
        do { try body() } catch let error as StateFileError { return error } catch { Issue.record("unexpected \(error)") }
        return nil
    }

    @Test func aSymlinkedDatabaseIsRefused() throws {
        try withTemporaryDirectory { dir in
            _ = try SQLiteStateStore(path: dir + "/elsewhere.sqlite")
            try FileManager.default.createSymbolicLink(atPath: dir + "/state.sqlite", withDestinationPath: dir + "/elsewhere.sqlite")
            let error = refusal { _ = try SQLiteStateStore(stateDirectory: dir) }
            #expect(error == .symbolicLink(path: dir + "/state.sqlite"))
            #expect(error?.description.contains("symbolic link") == true)
        }
    }

    @Test func aDanglingSymlinkIsNotFollowedToCreateTheDatabase() throws {
        try withTemporaryDirectory { dir in
            try FileManager.default.createSymbolicLink(atPath: dir + "/state.sqlite", withDestinationPath: dir + "/planted.sqlite")
            #expect(refusal { _ = try SQLiteStateStore(stateDirectory: dir) } == .symbolicLink(path: dir + "/state.sqlite"))
            #expect(!FileManager.default.fileExists(atPath: dir + "/planted.sqlite"))
        }
    }

    @Test func sqliteItselfRefusesALink() throws {
        try withTemporaryDirectory { dir in
            _ = try SQLiteConnection(path: dir + "/real.sqlite")
            try FileManager.default.createSymbolicLink(atPath: dir + "/link.sqlite", withDestinationPath: dir + "/real.sqlite")
            #expect(throws: SQLiteError.self) { try SQLiteConnection(path: dir + "/link.sqlite") }
        }
    }

    @Test(arguments: [0o620, 0o602, 0o660, 0o666, 0o622] as [mode_t])
    func aDatabaseOthersCanWriteIsRefused(_ fileMode: mode_t) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/state.sqlite"
            _ = try SQLiteStateStore(path: path)
            chmod(path, fileMode)
            let error = refusal { _ = try SQLiteStateStore(path: path) }
            #expect(error == .writableByOthers(path: path, mode: UInt32(S_IFREG) | UInt32(fileMode)))
            #expect(error?.description.contains("chmod 600 \(path)") == true)
            #expect(mode(of: path) == UInt32(fileMode), "a refused file is left as it is")
        }
    }

    @Test(arguments: [0o750, 0o755, 0o705] as [mode_t])
    func aStateDirectoryOthersCanOnlyReadIsTightened(_ directoryMode: mode_t) throws {
        try withTemporaryDirectory { tmp in
            let dir = tmp + "/state"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
            chmod(dir, directoryMode)
            _ = try SQLiteStateStore(stateDirectory: dir)
            let mode = try #require(FileManager.default.attributesOfItem(atPath: dir)[.posixPermissions] as? Int)
            #expect(mode == 0o700)
        }
    }

    @Test(arguments: [0o770, 0o777, 0o757, 0o730] as [mode_t])
    func aStateDirectoryOthersCanWriteIsRefused(_ directoryMode: mode_t) throws {
        try withTemporaryDirectory { tmp in
            let dir = tmp + "/state"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
            chmod(dir, directoryMode)
            let error = refusal { _ = try SQLiteStateStore(stateDirectory: dir) }
            #expect(error?.description.contains("chmod 700 \(dir)") == true)
            #expect(!FileManager.default.fileExists(atPath: dir + "/state.sqlite"))
        }
    }

    @Test(arguments: ["", "-wal", "-shm", "-journal", "dir"])
    func anotherUsersFileIsRefused(_ which: String) throws {
        guard geteuid() == 0 else { return }  // only root can hand a file to another user
        try withTemporaryDirectory { tmp in
            let dir = tmp + "/state", path = dir + "/state.sqlite"
            _ = try SQLiteStateStore(path: path)
            let target = which == "dir" ? dir : path + which
            if which.hasPrefix("-") { try writeFile(target, "", mode: 0o600) }
            #expect(chown(target, 65534, 65534) == 0)
            let error = refusal { _ = try SQLiteStateStore(path: path) }
            #expect(error == .wrongOwner(path: target, ownerUID: 65534, currentUID: 0))
            #expect(error?.description.contains("chown 0 \(target)") == true)
        }
    }

    @Test(arguments: ["-wal", "-shm", "-journal"])
    func aSymlinkedOrWritableCompanionFileIsRefused(_ suffix: String) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/state.sqlite"
            _ = try SQLiteStateStore(path: path)
            try? FileManager.default.removeItem(atPath: path + suffix)
            try writeFile(dir + "/other", "", mode: 0o600)
            try FileManager.default.createSymbolicLink(atPath: path + suffix, withDestinationPath: dir + "/other")
            #expect(refusal { _ = try SQLiteStateStore(path: path) } == .symbolicLink(path: path + suffix))
            try FileManager.default.removeItem(atPath: path + suffix)
            try writeFile(path + suffix, "", mode: 0o666)
            #expect(refusal { _ = try SQLiteStateStore(path: path) } == .writableByOthers(path: path + suffix, mode: UInt32(S_IFREG) | 0o666))
        }
    }

    @Test func aNewDatabaseAndItsDirectoryAreCreatedPrivate() throws {
        try withTemporaryDirectory { tmp in
            let dir = tmp + "/a/state"
            let store = try SQLiteStateStore(stateDirectory: dir)
            try store.recordUsage(UsageRecord(occurredAt: Date()))
            #expect(mode(of: dir) == 0o700)
            for file in ["", "-wal", "-shm"] { #expect(mode(of: store.path + file) == 0o600, "state.sqlite\(file)") }
            // Reopening its own files is fine.
            _ = try SQLiteStateStore(stateDirectory: dir)
        }
    }
}
