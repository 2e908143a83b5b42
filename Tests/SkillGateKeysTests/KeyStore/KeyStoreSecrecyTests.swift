import Foundation
import SkillGateTestSupport
import Testing
@testable import SkillGateKeys

@Suite struct KeyStoreSecrecyTests {
    /// Provider keys (24 characters and more) keep their prefix and last four; a shorter secret (an MCP server's or a
    /// webhook's password) shows its last four from 16 characters and nothing below (decision 0153).
    @Test(arguments: [
        ("sk-proj-abcdefghijklmnopqrstuvwxyza1b2", "sk-…a1b2"),
        ("sk-ant-api03-abcdefghijklmnopWXYZ", "sk-…WXYZ"),
        ("AIzaSyA1234567890abcdefghijkLMNO", "AIz…LMNO"),
        ("abcdefghijklmnopqrstuvwx", "abc…uvwx"),
        ("abcdefghijklmnopqrstuvw", "…tuvw"),
        ("abcdefghijklmnop", "…mnop"),
        ("abcdefghijklmno", "****"),
        ("Pw12345678ab", "****"),
        ("x", "****"),
    ])
    func masksSecrets(_ secret: String, _ masked: String) {
        #expect(SecretMask.mask(secret) == masked)
    }

    /// No mask shows more than a third of a secret, and below 24 characters no more than a quarter.
    @Test func noMaskShowsALargeShareOfItsSecret() {
        for length in 1...200 {
            let secret = "abc-" + String(repeating: "x", count: max(0, length - 4))
            let shown = SecretMask.mask(String(secret.prefix(length))).filter { $0 != "…" && $0 != "*" }.count
            #expect(shown * (length < 24 ? 4 : 3) <= length, "\(shown) of \(length) characters shown")
        }
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
