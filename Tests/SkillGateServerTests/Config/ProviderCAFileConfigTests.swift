import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateServer

/// `providers.<id>.ca_file`: resolved against the config's directory and checked when the config loads
/// (Tests/Upstream/tls-upstream.sh shows it trusted by a real TLS connection).
@Suite struct ProviderCAFileConfigTests {
    private static let pem = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n"

    private func load(_ caFile: String, in directory: String) throws -> GatewayConfig {
        let json = #"{"providers":{"openai":{"base_url":"https://llm.internal/v1","ca_file":"\#(caFile)"}}}"#
        return try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: directory)
    }

    @Test func aRelativeCAFileIsResolvedAgainstTheConfigsDirectory() throws {
        try withTemporaryDirectory { dir in
            try writeFile(dir + "/internal-ca.pem", Self.pem, mode: 0o644)
            let config = try load("internal-ca.pem", in: dir)
            #expect(config.providerOverrides["openai"]?.caFile == dir + "/internal-ca.pem")
            #expect(config.providerOverrides["openai"]?.baseURL == "https://llm.internal/v1")
        }
    }

    @Test(arguments: [
        ("missing.pem", "no file at"),
        (".", "no file at"),
        ("key.pem", "no PEM certificate"),
    ])
    func aCAFileThatCannotBeUsedIsAConfigError(_ name: String, _ fragment: String) throws {
        try withTemporaryDirectory { dir in
            try writeFile(dir + "/key.pem", "-----BEGIN PRIVATE KEY-----\nMIGHAgEA\n-----END PRIVATE KEY-----\n", mode: 0o600)
            do {
                _ = try load(name, in: dir)
                Issue.record("ca_file \(name) was accepted")
            } catch let error as JSONShapeError {
                #expect(error.path == "$.providers.openai.ca_file")
                #expect(error.message.contains(fragment), "\(error.message)")
            }
        }
    }

    @Test func withoutCAFileTheSystemStoreIsUsed() throws {
        let config = try GatewayConfig(json: try JSONValue.parse(#"{"providers":{"openai":{"enabled":true}}}"#), file: "test.json",
                                       baseDirectory: "/etc/skillgate")
        #expect(config.providerOverrides["openai"]?.caFile == nil)
    }
}
