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
        // Blocks until the output is read to its end (for good, if the child still runs): off the shared task pool.
        let output = (try? await offThePool { process.waitUntilExit() }) ?? ""
        return (process.exitCode, output)
    }

    @Test func repeatedOptionsAbsurdBudgetsAndBadKeyInputAreRefused() async throws {
        let (config, dir) = try ServeProcessTests.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let twice = await Self.run("SKILLGATE tokens create --name app --rpm 1 --rpm 2 --config \(config)", in: dir)
        let scenarios = await Self.run("SKILLGATE tokens create --name app2 --scenario chat --scenario chat --config \(config)", in: dir)
        let budget = await Self.run("SKILLGATE tokens create --name app3 --budget-day 10000000000000 --config \(config)", in: dir)
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

    /// Budgets are plain decimal dollars (decision 0103): `--budget-day 0x10` was stored as $16, `1e-12` as a budget of
    /// no money at all. Each refusal names the option and a valid amount; nothing is stored.
    @Test(arguments: ["0x10", "0X1p4", "+5", "-1", "1e-12", "5e2", "inf", "nan", "5.", ".5", "0.0000001", "$0x10", "1e13"])
    func aBudgetThatIsNotPlainDecimalDollarsIsRefused(_ budget: String) async throws {
        let (config, dir) = try ServeProcessTests.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let created = await Self.run("SKILLGATE tokens create --name app --budget-day '\(budget)' --config \(config)", in: dir)
        let listed = await Self.run("SKILLGATE tokens list --config \(config)", in: dir)
        #expect(created.code == 2, "\(created.output)")
        #expect(created.output.contains("--budget-day") && created.output.contains("(got \"\(budget)\")"), "\(created.output)")
        #expect(created.output.contains("like 5, 5.25 or 0.01") || created.output.contains("over the largest budget"), "\(created.output)")
        #expect(!listed.output.contains("app\t"), "nothing was stored: \(listed.output)")
    }

    /// Plain amounts, with or without a `$`, down to a microdollar, are taken and listed as written.
    @Test func plainDecimalBudgetsAreTakenAndListedAsWritten() async throws {
        let (config, dir) = try ServeProcessTests.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let created = await Self.run("SKILLGATE tokens create --name app --budget-day '$5.25' --budget-month 0.000001 --config \(config)", in: dir)
        let first = await Self.run("SKILLGATE tokens list --config \(config)", in: dir)
        let updated = await Self.run("SKILLGATE tokens update app --budget-month 12.50 --config \(config)", in: dir)
        let listed = await Self.run("SKILLGATE tokens list --config \(config)", in: dir)
        #expect(created.code == 0, "\(created.output)")
        #expect(first.output.contains("day=$5.25,month=$0.000001"), "not 1e-06: \(first.output)")
        #expect(updated.code == 0 && updated.output.contains("day=$5.25,month=$12.5"), "\(updated.output)")
        #expect(listed.output.contains("day=$5.25,month=$12.5"), "\(listed.output)")
    }

    /// `--default-scenario` sets the scenario of the token's requests that name none (decision 0103); it must be
    /// configured and, for a scoped token, one of its scenarios.
    @Test func aDefaultScenarioIsTakenWhenItIsConfiguredAndInScope() async throws {
        let (config, dir) = try ServeProcessTests.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let unknown = await Self.run("SKILLGATE tokens create --name a --default-scenario nope --config \(config)", in: dir)
        let made = await Self.run("SKILLGATE tokens create --name b --scenario chat --default-scenario chat --config \(config)", in: dir)
        let listed = await Self.run("SKILLGATE tokens list --config \(config)", in: dir)
        #expect(unknown.code != 0 && unknown.output.contains("unknown scenario \"nope\"; configured: chat"), "\(unknown.output)")
        #expect(made.code == 0, "\(made.output)")
        #expect(listed.output.contains("b\tchat\tchat;default=chat\t"), "\(listed.output)")
    }

    /// An option that takes a value, given without one, took the next option as its value (decision 0137): `tokens create
    /// --name --admin` made an ordinary token named `--admin`, which `tokens revoke --admin` and `tokens update --admin`
    /// then refused as usage errors, and `--rpm --config PATH` read `--config` as the limit and the default config
    /// instead of PATH. A token name must start with a letter or digit too, so no name reads as an option.
    @Test func anOptionGivenWithoutItsValueIsRefusedAndNoNameReadsAsAnOption() async throws {
        let (config, dir) = try ServeProcessTests.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let admin = await Self.run("SKILLGATE tokens create --name --admin --config \(config)", in: dir)
        let limit = await Self.run("SKILLGATE tokens create --name app --rpm --config \(config)", in: dir)
        let dash = await Self.run("SKILLGATE tokens create --name -x --config \(config)", in: dir)
        let listed = await Self.run("SKILLGATE tokens list --config \(config)", in: dir)
        #expect(admin.code == 2 && admin.output.contains("--name needs a value (--admin is an option)"), "\(admin.output)")
        #expect(limit.code == 2 && limit.output.contains("--rpm needs a value (--config is an option)"), "\(limit.output)")
        #expect(dash.code == 2 && dash.output.contains("starting with a letter or digit"), "an invalid name is a usage error (exit 2): \(dash.output)")
        #expect(!listed.output.contains("--admin") && !listed.output.contains("-x\t") && !listed.output.contains("app\t"),
                "nothing was stored: \(listed.output)")
    }

    /// An unknown command's error pointed at `skillgate <that command> --help`, which fails the same way.
    @Test func anUnknownCommandPointsAtTheGeneralHelp() async throws {
        let (_, dir) = try ServeProcessTests.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let unknown = await Self.run("SKILLGATE tokenz list", in: dir)
        #expect(unknown.code == 2 && unknown.output.contains("unknown command \"tokenz\""), "\(unknown.output)")
        #expect(unknown.output.contains("Run `skillgate --help`") && !unknown.output.contains("skillgate tokenz --help"), "\(unknown.output)")
    }
}
