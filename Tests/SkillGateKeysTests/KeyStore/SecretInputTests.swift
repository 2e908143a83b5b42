import Foundation
import Testing
@testable import SkillGateKeys

@Suite struct SecretInputTests {
    /// Runs `SecretInput.read` on a pipe holding `input`; returns the result and the prompt written.
    private func readFromPipe(_ input: String) throws -> (result: Result<String, SecretInput.Failure>, prompt: String) {
        let stdin = Pipe(), stderr = Pipe()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let result = Result { () throws(SecretInput.Failure) in
            try SecretInput.read(prompt: "Secret: ", from: stdin.fileHandleForReading.fileDescriptor,
                                 promptTo: stderr.fileHandleForWriting.fileDescriptor)
        }
        try stderr.fileHandleForWriting.close()
        let prompt = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (result, prompt)
    }

    @Test(arguments: [
        ("sk-test-123\n", "sk-test-123"),
        ("  sk-test-123\r\n", "sk-test-123"),
        ("sk-test-123\n\n  \r\n\t\n", "sk-test-123"),
        ("sk-no-newline", "sk-no-newline"),
    ])
    func readsOneTrimmedLineFromAPipe(_ input: String, _ expected: String) throws {
        let (result, prompt) = try readFromPipe(input)
        #expect(try result.get() == expected)
        #expect(prompt == "Secret: ")
    }

    /// Piped text after the first line was dropped without a word, so `printf 'line1\nline2'` kept `line1` (decision
    /// 0096): a key is one line, and anything more is refused with nothing changed.
    @Test(arguments: ["sk-test-123\nsecond line\n", "sk-a\n\nsk-b", "sk-test-123\n" + String(repeating: " ", count: 60_000) + "x"])
    func refusesPipedInputOfSeveralLines(_ input: String) throws {
        let (result, _) = try readFromPipe(input)
        #expect(throws: SecretInput.Failure.severalLines) { try result.get() }
        #expect(SecretInput.Failure.severalLines.description.contains("more than one line"))
    }

    @Test(arguments: ["\n", "", "   \r\n"])
    func refusesAnEmptySecret(_ input: String) throws {
        let (result, _) = try readFromPipe(input)
        #expect(throws: SecretInput.Failure.empty) { try result.get() }
        #expect(SecretInput.Failure.empty.description.contains("no secret was entered"))
    }
}
