import Foundation
import Testing
import SkillGateTestSupport

/// The CLI does not echo a secret given where a name belongs (decision 0153): `keys set` checks the name before its
/// prompt quotes it, and `tokens revoke|update` given a token's text say so without repeating it.
@Suite struct CLISecretEchoProcessTests {
    @Test func aSecretGivenAsAKeyNameIsRefusedBeforeThePromptQuotesIt() async throws {
        let (config, dir) = try ServeProcessTests.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let secret = "sk-live-Pw12345678abcdefXYZ"
        let set = await CLIRefusalProcessTests.run("printf 'x' | SKILLGATE keys set \(secret) --config \(config)", in: dir)
        #expect(set.code != 0 && set.output.contains("invalid key name"), "\(set.output)")
        #expect(!set.output.contains("Pw12345678") && !set.output.contains("Secret for"), "\(set.output)")
    }

    @Test func aTokensTextGivenAsItsNameIsNotEchoed() async throws {
        let (config, dir) = try ServeProcessTests.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let created = await CLIRefusalProcessTests.run("SKILLGATE tokens create --name app --config \(config)", in: dir)
        let token = try #require(created.output.split(whereSeparator: { $0.isWhitespace }).first { $0.hasPrefix("sgk_") }.map(String.init),
                                 "\(created.output)")
        let revoke = await CLIRefusalProcessTests.run("SKILLGATE tokens revoke \(token) --config \(config)", in: dir)
        let update = await CLIRefusalProcessTests.run("SKILLGATE tokens update \(token) --rpm 5 --config \(config)", in: dir)
        // Options whose value is a name too (a second attack round found these quoting it back).
        let notes = await CLIRefusalProcessTests.run("SKILLGATE notes list --token \(token) --config \(config)", in: dir)
        let scenario = await CLIRefusalProcessTests.run("SKILLGATE tokens create --name other --scenario \(token) --config \(config)", in: dir)
        for answer in [revoke, update, notes, scenario] {
            #expect(answer.code != 0 && answer.output.contains("a token's text"), "\(answer.output)")
            #expect(!answer.output.contains(token.dropFirst(4).prefix(10)), "\(answer.output)")
        }
    }
}
