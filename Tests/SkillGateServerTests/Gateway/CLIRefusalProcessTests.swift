import Foundation
import Testing
import SkillGateTestSupport

/// The CLI refuses, with exit 2 or 1 and a message saying what to do, what it used to take without a word
/// (decision 0096): an option given twice, a budget past the largest, and piped key input of several lines or with a
/// control character.
@Suite struct CLIRefusalProcessTests {
    static func run(_ command: String, in dir: URL) async -> (code: Int32?, output: String) {
        let binary = (try? ServeProcessTests.binary()) ?? "skillgate"
        guard let process = try? SpawnedProcess("/bin/sh", ["-c", command.replacingOccurrences(of: "SKILLGATE", with: binary)]) else { return (nil, "") }
        _ = await process.waitForExit()
        let output = process.waitUntilExit()
        return (process.exitCode, output)
    }

    @Test func repeatedOptionsAbsurdBudgetsAndBadKeyInputAreRefused() async throws {
        let (config, dir) = try ServeProcessTests.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let twice = await Self.run("SKILLGATE tokens create --name app --rpm 1 --rpm 2 --config \(config)", in: dir)
        let scenarios = await Self.run("SKILLGATE tokens create --name app2 --scenario chat --scenario chat --config \(config)", in: dir)
        let budget = await Self.run("SKILLGATE tokens create --name app3 --budget-day 1e13 --config \(config)", in: dir)
        let lines = await Self.run("printf 'sk-one\\nsk-two' | SKILLGATE keys set OPENAI_API_KEY --config \(config)", in: dir)
        let control = await Self.run("printf 'sk-abc\\rX-Injected: yes' | SKILLGATE keys set OPENAI_API_KEY --config \(config)", in: dir)
        let listed = await Self.run("SKILLGATE keys list --config \(config)", in: dir)
        #expect(twice.code == 2 && twice.output.contains("--rpm is given more than once; give it once"), "\(twice.output)")
        #expect(scenarios.code == 0, "--scenario collects several: \(scenarios.output)")
        #expect(budget.code == 2 && budget.output.contains("over the largest budget"), "\(budget.output)")
        #expect(lines.code != 0 && lines.output.contains("more than one line"), "\(lines.output)")
        #expect(control.code != 0 && control.output.contains("the control character 0x0D at byte 7"), "\(control.output)")
        #expect(!control.output.contains("sk-abc") && !lines.output.contains("sk-one"))
        #expect(!listed.output.contains("OPENAI_API_KEY"), "nothing was saved: \(listed.output)")
    }
}
