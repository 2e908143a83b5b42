import Foundation
import Testing
@testable import SkillGateState

@Suite struct SQLiteStateStoreSkillExamplesTests {
    private func withStore(_ body: (String) throws -> Void) throws {
        let dir = NSTemporaryDirectory() + "skillgate-examples-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(dir)
    }

    @Test func examplesSurviveAReopenWithTheirTextIntact() throws {
        try withStore { dir in
            let examples = ["remind me at 6 \"sharp\"", "六点提醒我", "tab\there"]
            try SQLiteStateStore(stateDirectory: dir).saveSkillExamples([StoredSkillExamples(key: "k1", model: "m", examples: examples)])
            let reopened = try SQLiteStateStore(stateDirectory: dir)
            #expect(try reopened.skillExamples(keys: ["k1", "k2"]) == ["k1": examples])
            #expect(try reopened.schemaVersion() == StateSchema.steps.count)
        }
    }

    @Test func savingReplacesAndTheTableIsTrimmedOldestFirst() throws {
        try withStore { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            let t0 = Date(timeIntervalSince1970: 1_000)
            try store.saveSkillExamples([StoredSkillExamples(key: "a", model: "m", examples: ["1"])], at: t0, capacity: 2)
            try store.saveSkillExamples([StoredSkillExamples(key: "b", model: "m", examples: ["2"])], at: t0 + 1, capacity: 2)
            try store.saveSkillExamples([StoredSkillExamples(key: "b", model: "m", examples: ["3"])], at: t0 + 2, capacity: 2)
            #expect(try store.skillExampleCount() == 2)
            try store.saveSkillExamples([StoredSkillExamples(key: "c", model: "m", examples: ["4"])], at: t0 + 3, capacity: 2)
            #expect(try store.skillExamples(keys: ["a", "b", "c"]) == ["b": ["3"], "c": ["4"]])
        }
    }

    @Test func manyKeysAreReadInChunks() throws {
        try withStore { dir in
            let store = try SQLiteStateStore(stateDirectory: dir)
            let entries = (0..<600).map { StoredSkillExamples(key: "k\($0)", model: "m", examples: ["e\($0)"]) }
            try store.saveSkillExamples(entries)
            let found = try store.skillExamples(keys: entries.map(\.key) + ["absent"])
            #expect(found.count == 600 && found["k599"] == ["e599"])
        }
    }
}
