import Foundation
import SkillGateCore
import SkillGateTestSupport
import Testing

/// The shared steps of replacing a file (the key store's and the ledger spool's): a new file is 0600, is never opened
/// through a planted link or over an existing file, and a rename replaces the target whole.
@Suite struct WholeFileWriteTests {
    /// (The umask is process-wide, so it is not changed here: tests beside this one create files.)
    @Test func aNewFileHasItsBytesAndMode0600() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/new"
            let st = try WholeFileWrite.create(path, bytes: Array("secret".utf8), sync: true)
            #expect(mode(of: path) == 0o600)
            #expect(st.st_size == 6)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "secret")
        }
    }

    @Test func anExistingFileOrAPlantedLinkIsNotWrittenThrough() throws {
        try withTemporaryDirectory { dir in
            let victim = dir + "/victim"
            try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
            #expect(symlink(victim, dir + "/link") == 0)
            for path in [victim, dir + "/link"] {
                #expect(throws: FileWriteFailure.self) { try WholeFileWrite.create(path, bytes: Array("new".utf8), sync: false) }
            }
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
        }
    }

    @Test func aRenameReplacesTheTargetAndAFailedOneRemovesTheNewFile() throws {
        try withTemporaryDirectory { dir in
            let target = dir + "/target"
            try Data("old".utf8).write(to: URL(fileURLWithPath: target))
            try WholeFileWrite.create(dir + "/.target.tmp", bytes: Array("new".utf8), sync: true)
            try WholeFileWrite.rename(dir + "/.target.tmp", over: target, syncing: dir)
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
            #expect(!FileManager.default.fileExists(atPath: dir + "/.target.tmp"))

            try WholeFileWrite.create(dir + "/.other.tmp", bytes: [1], sync: false)
            let failure = try #require(throws: FileWriteFailure.self) {
                try WholeFileWrite.rename(dir + "/.other.tmp", over: dir + "/no-such-directory/target", syncing: nil)
            }
            #expect(failure.errno == ENOENT && failure.path.hasSuffix("no-such-directory/target"))
            #expect(!FileManager.default.fileExists(atPath: dir + "/.other.tmp"))
        }
    }
}
