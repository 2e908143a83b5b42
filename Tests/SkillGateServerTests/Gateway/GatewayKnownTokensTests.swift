import Foundation
import Testing
import SkillGateState
@testable import SkillGateServer

/// The gateway knows the tokens active in its store from its start (decision 0079): after a restart, a client's first
/// lookup goes to the head gate's queue for known tokens, not behind made-up ones.
@Suite struct GatewayKnownTokensTests {
    @Test func theTokensActiveAtTheStartAreKnown() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-known-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let providers = dir.appendingPathComponent("providers")
        try FileManager.default.createDirectory(at: providers, withIntermediateDirectories: true)
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(at: repo.appendingPathComponent("Providers/demo.json"), to: providers.appendingPathComponent("demo.json"))
        let path = dir.appendingPathComponent("skillgate.json").path
        try #"{"listen":"127.0.0.1:0","state_dir":"state","providers_dir":"providers","tiers":{"light":["demo/demo-light"]},"default_model":"light","scenarios":{"chat":{}}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let config = try GatewayConfig.load(path: path)
        // `skillgate tokens create`, before the gateway starts.
        let cli = try GatewayServer.openTokenService(config: config)
        let active = try cli.create(name: "ios-app").token
        let revoked = try cli.create(name: "old").token
        try cli.revoke(name: "old")

        let server = try GatewayServer(config: config, logFD: -1)
        func isKnown(_ token: String) -> Bool? {
            if case .notCached(let known) = server.services.tokens.cachedGrant(for: token) { return known }
            return nil
        }
        #expect(isKnown(active) == true)
        #expect(isKnown(revoked) == false)
    }
}
