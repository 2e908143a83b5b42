import Foundation
import SkillGateTestSupport
import Testing
@testable import SkillGateState

/// Whether `state.sqlite` is still the file the store opened (decision 0099): a rename away, a deletion and a
/// replacement by another file are each seen; the same file put back is not a change.
@Suite struct SQLiteStateFileMovedTests {
    @Test func renamedDeletedAndReplacedFilesAreSeenAndTheSameFileBackIsNot() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            let path = store.path
            #expect(!store.databaseFileHasMoved)
            #expect(rename(path, path + ".away") == 0)
            #expect(store.databaseFileHasMoved, "renamed away")
            #expect(rename(path + ".away", path) == 0)
            #expect(!store.databaseFileHasMoved, "the same file back at its path")

            // A copy put in its place (a restore while running): another file, though its bytes are the same.
            try FileManager.default.copyItem(atPath: path, toPath: path + ".copy")
            #expect(rename(path + ".copy", path) == 0)
            #expect(store.databaseFileHasMoved, "replaced")
            #expect(unlink(path) == 0)
            #expect(store.databaseFileHasMoved, "deleted")
            // The store goes on with the file it opened: a write still works, and is lost with that file.
            try store.recordUsage(UsageRecord(occurredAt: Date()))
        }
    }
}
