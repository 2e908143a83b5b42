import Foundation
import Testing
import SkillGateTestSupport

/// `skillgate tokens create` as a process: what is wrong with its arguments is a usage error (exit 2, as the README says),
/// a model scope is checked against the config and catalog (a typo made a token every request refused with a 403), and
/// a good command exits 0. Found by decision 0146's documentation round: an invalid name and a default scenario outside
/// the token's scenarios exited 1, and `--model ligth` was accepted.
@Suite struct TokensCommandProcessTests {
    func run(_ arguments: [String], config: String) async throws -> (code: Int32?, output: String) {
        let process = try SpawnedProcess(try ServeProcessTests.binary(), ["tokens", "create", "--config", config] + arguments)
        defer { process.stop() }
        #expect(await process.waitForExit())
        return (process.exitCode, process.output)
    }

    @Test func badArgumentsAreUsageErrorsAndModelsAreChecked() async throws {
        let (config, dir) = try ServeProcessTests.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let typo = try await run(["--name", "app", "--model", "ligth"], config: config)
        #expect(typo.code == 2, "\(typo.output)")
        #expect(typo.output.contains("unknown model \"ligth\"") && typo.output.contains("skillgate providers"), "\(typo.output)")
        let badName = try await run(["--name", "bad name"], config: config)
        #expect(badName.code == 2 && badName.output.contains("invalid token name"), "\(badName.output)")
        for model in ["light", "demo/demo-light", "demo-strong"] {
            let good = try await run(["--name", "app-\(model.count)", "--model", model], config: config)
            #expect(good.code == 0, "\(model): \(good.output)")
        }
        let taken = try await run(["--name", "app-5"], config: config)
        #expect(taken.code == 1 && taken.output.contains("already exists"), "a refusal by the tokens' state stays a runtime failure: \(taken.output)")
    }
}
