import Foundation
import Testing
import SkillGateTestSupport

/// The tests' child processes: once `waitForExit` says the child exited, `output` holds all it wrote. A stress run read
/// an empty output from `skillgate tokens create`, which had exited with its usage error: the thread reading the pipe
/// had not run yet when the child was reaped.
@Suite struct SpawnedProcessTests {
    @Test func theOutputIsWholeOnceTheChildExited() async throws {
        // A child that exits at once is often reaped before the reader has run: without the wait for the output's end,
        // 18 and 19 of these 40 rounds failed. One that writes more than a pipe holds (64 KiB) exits while the last of
        // its output is still being read.
        for round in 0..<40 {
            let big = round % 10 == 9
            let script = big ? "head -c 300000 /dev/zero | tr '\\000' a; exit 3" : "printf 'round \(round)'; exit 3"
            let child = try SpawnedProcess("/bin/sh", ["-c", script])
            defer { child.stop() }
            #expect(await child.waitForExit())
            #expect(child.exitCode == 3)
            if big {
                #expect(child.output.utf8.count == 300_000)
            } else {
                #expect(child.output == "round \(round)")
            }
        }
    }

    @Test func aGrandchildHoldingTheOutputOpenDelaysTheExitOnlyBriefly() async throws {
        // The grandchild inherits the pipe and keeps it open for a minute; it prints its pid so the test can end it.
        let child = try SpawnedProcess("/bin/sh", ["-c", "sleep 60 & echo \"grandchild $!\"; exit 0"])
        defer { child.stop() }
        let start = ContinuousClock.now
        #expect(await child.waitForExit())
        #expect(ContinuousClock.now - start < .seconds(30), "the wait for the output must give up after its 5 s")
        #expect(child.exitCode == 0)
        let grandchild = try #require(child.output.split(separator: " ").last.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) },
                                      "\(child.output)")
        kill(grandchild, SIGKILL)
    }
}
