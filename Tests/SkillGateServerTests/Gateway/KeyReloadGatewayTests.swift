import Foundation
import Testing
import SkillGateHTTP
@testable import SkillGateServer

/// A key file broken under a running gateway (a hand edit gone wrong, a `chmod` too wide): the keys in memory stay, and
/// the log says why once, not at every 2-second look (decision 0137), as a moved state file is told once (decision
/// 0099). A SIGHUP, the operator asking, says it again; a fixed file is reloaded and a new break is told again. Before,
/// the warning came every 2 s for as long as the file stayed broken: 1,800 lines an hour.
@Suite(.serialized) struct KeyReloadGatewayTests {
    typealias Harness = GatewayLoopbackTests.Harness

    static func warnings(_ log: String) -> Int {
        log.split(separator: "\n").filter { $0.contains("key reload failed") }.count
    }

    @Test func aBrokenKeyFileIsToldOnceUntilItChangesOrASignalAsks() async throws {
        let h = try Harness()
        let keyFile = h.server.services.config.keyFile
        let good = try Data(contentsOf: URL(fileURLWithPath: keyFile))
        try Data("{ broken".utf8).write(to: URL(fileURLWithPath: keyFile))
        chmod(keyFile, 0o600)
        for _ in 0..<3 { h.server.reloadKeys(signalled: false) }
        // The 2-second poll looks too, at least once meanwhile.
        try await Task.sleep(for: .milliseconds(2500))
        let broken = await h.log()
        h.server.reloadKeys(signalled: true)
        let asked = await h.log()
        try good.write(to: URL(fileURLWithPath: keyFile))
        chmod(keyFile, 0o600)
        h.server.reloadKeys(signalled: false)
        let fixed = await h.log()
        chmod(keyFile, 0o644)
        h.server.reloadKeys(signalled: false)
        let wide = await h.log()
        let keys = h.server.services.keys.names
        await h.stop()
        #expect(Self.warnings(broken) == 1, "told \(Self.warnings(broken)) times: \(broken)")
        #expect(broken.contains("keeping the previous keys") && broken.contains("not valid JSON"))
        #expect(Self.warnings(asked) == 1, "a SIGHUP says it again")
        #expect(fixed.contains("keys reloaded"))
        #expect(Self.warnings(wide) == 1 && wide.contains("chmod 600"), "a new break is told: \(wide)")
        #expect(keys.contains("UNUSED_PROVIDER_KEY"), "the keys in memory stayed")
    }
}
