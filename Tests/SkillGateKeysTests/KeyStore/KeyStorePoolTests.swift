import Foundation
import SkillGateTestSupport
import Testing
@testable import SkillGateKeys

/// A provider's pool of keys: `NAME`, `NAME_2`, `NAME_3`, ... in the key file.
@Suite struct KeyStorePoolTests {
    @Test func numberedKeysJoinTheBaseKeyInNumericOrder() throws {
        try withTemporaryDirectory { dir in
            let store = try KeyStore(path: dir + "/keys.json")
            try store.set("OPENAI_API_KEY_10", secret: "sk-ten")
            try store.set("OPENAI_API_KEY", secret: "sk-one")
            try store.set("OPENAI_API_KEY_2", secret: "sk-two")
            #expect(store.pool(named: "OPENAI_API_KEY").map(\.name) == ["OPENAI_API_KEY", "OPENAI_API_KEY_2", "OPENAI_API_KEY_10"])
            #expect(store.pool(named: "OPENAI_API_KEY").map(\.secret) == ["sk-one", "sk-two", "sk-ten"])
        }
    }

    @Test func namesThatOnlyLookNumberedStayOut() throws {
        try withTemporaryDirectory { dir in
            let store = try KeyStore(path: dir + "/keys.json")
            for name in ["OPENAI_API_KEY_02", "OPENAI_API_KEY_X", "OPENAI_API_KEY_", "OPENAI_API_KEY_2_OLD", "OPENAI_API_KEYS", "OPENAI_API_KEY_1234567"] {
                try store.set(name, secret: "sk-\(name.count)")
            }
            #expect(store.pool(named: "OPENAI_API_KEY").isEmpty)
            try store.set("OPENAI_API_KEY_3", secret: "sk-three")
            #expect(store.pool(named: "OPENAI_API_KEY").map(\.name) == ["OPENAI_API_KEY_3"], "a numbered key works without the base key")
        }
    }
}
