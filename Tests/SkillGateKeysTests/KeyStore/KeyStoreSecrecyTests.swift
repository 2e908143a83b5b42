import Foundation
import SkillGateTestSupport
import Testing
@testable import SkillGateKeys

@Suite struct KeyStoreSecrecyTests {
    @Test(arguments: [
        ("sk-proj-abcdefghijklmnopqrstuvwxyza1b2", "sk-…a1b2"),
        ("sk-ant-api03-abcdefghijklmnopWXYZ", "sk-…WXYZ"),
        ("AIzaSyA1234567890abcdefghijkLMNO", "AIz…LMNO"),
        ("abcdefghijkl", "abc…ijkl"),
        ("abcdefghijk", "****"),
        ("x", "****"),
    ])
    func masksSecrets(_ secret: String, _ masked: String) {
        #expect(SecretMask.mask(secret) == masked)
    }

    @Test func listMaskedIsSortedAndMasked() throws {
        try withTemporaryDirectory { dir in
            let store = try KeyStore(path: dir + "/keys.json")
            try store.set("OPENAI_API_KEY", secret: "sk-proj-abcdefghijklmnopqrstuvwxyza1b2")
            try store.set("GEMINI_API_KEY", secret: "AIzaSyA1234567890abcdefghijkLMNO")
            let listed = store.listMasked()
            #expect(listed.map(\.name) == ["GEMINI_API_KEY", "OPENAI_API_KEY"])
            #expect(listed.map(\.masked) == ["AIz…LMNO", "sk-…a1b2"])
        }
    }

    @Test func secretsNeverAppearInDescriptionsDumpsOrErrors() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/keys.json"
            let secret = "sk-very-secret-0123456789"
            let store = try KeyStore(path: path)
            try store.set("OPENAI_API_KEY", secret: secret)
            var dumped = ""
            dump(store, to: &dumped)
            for text in [String(describing: store), String(reflecting: store), dumped, "\(store)"] {
                #expect(!text.contains(secret))
                #expect(!text.contains("very-secret"))
            }
            #expect(String(describing: store).contains("OPENAI_API_KEY"))

            // A malformed file with a secret in it: the error quotes neither the secret nor the bad character.
            try writeFile(path, "{\"version\":1,\"keys\":{\"A\":\"\(secret)\u{01}\"}}", mode: 0o600)
            let error = #expect(throws: KeyStoreError.self) { try KeyStore(path: path) }
            let text = error.map(String.init(describing:)) ?? ""
            #expect(text.contains("not valid JSON"))
            #expect(!text.contains("very-secret"))
            // A secret passed as the name is not repeated either.
            let nameError = #expect(throws: KeyStoreError.self) { try store.set(secret, secret: "x") }
            #expect(nameError.map(String.init(describing:))?.contains("very-secret") == false)
        }
    }
}
