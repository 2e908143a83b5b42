import Foundation
import Testing
import SkillGateState
@testable import SkillGateServer
import SkillGateTestSupport

/// The gateway knows the tokens active in its store from its start (decision 0079): after a restart, a client's first
/// lookup goes to the head gate's queue for known tokens, not behind made-up ones.
@Suite struct GatewayKnownTokensTests {
    /// A gateway configuration over a fresh directory with the demo provider.
    static func config(in dir: URL) throws -> GatewayConfig {
        let providers = dir.appendingPathComponent("providers")
        try FileManager.default.createDirectory(at: providers, withIntermediateDirectories: true)
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(at: repo.appendingPathComponent("Providers/demo.json"), to: providers.appendingPathComponent("demo.json"))
        let path = dir.appendingPathComponent("skillgate.json").path
        try #"{"listen":"127.0.0.1:0","state_dir":"state","providers_dir":"providers","tiers":{"light":["demo/demo-light"]},"default_model":"light","scenarios":{"chat":{}}}"#
            .writeAtomically(toFile: path)
        return try GatewayConfig.load(path: path)
    }

    @Test func theTokensActiveAtTheStartAreKnown() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-known-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = try Self.config(in: dir)
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

    /// A token created elsewhere while the gateway runs (`skillgate tokens create` beside it) is known within a few
    /// seconds, before any request used it (decision 0088): the running gateway lists new tokens every two seconds.
    @Test func aTokenCreatedWhileTheGatewayRunsIsKnownSoon() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-known-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = try Self.config(in: dir)
        let server = try GatewayServer(config: config, logFD: -1)
        try server.start()
        let created = try GatewayServer.openTokenService(config: config).create(name: "ios-app").token
        func isKnown() -> Bool {
            if case .notCached(known: true) = server.services.tokens.cachedGrant(for: created) { return true }
            return false
        }
        let deadline = Date().addingTimeInterval(8)
        while !isKnown(), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(isKnown(), "a token created beside the running gateway was not learnt within 8 s")
        await server.shutdown()
    }
}
