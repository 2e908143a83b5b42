import Testing
import SkillGateCore
@testable import SkillGateServer

@Suite struct GatewayConfigTests {
    private func load(_ json: String) throws -> GatewayConfig {
        try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: "/etc/skillgate")
    }

    @Test func defaultsAndPathResolution() throws {
        let c = try load("{}")
        #expect(c.host == "127.0.0.1" && c.port == 8080)
        #expect(c.providersDirectory == "/etc/Providers" || c.providersDirectory == "/etc/skillgate/../Providers")
        #expect(c.keyFile.hasSuffix("state/keys/keys.json"))
        #expect(c.scenarios["chat"] != nil)
        #expect(c.limits.maxBodyBytes == 4 * 1024 * 1024)
        #expect(c.limits.listenBacklog == 4096)
        #expect(try load(#"{"limits":{"listen_backlog":128}}"#).limits.listenBacklog == 128)
        #expect(c.ownHTTP1Client)
        #expect(try !load(#"{"upstream_http1":"libcurl"}"#).ownHTTP1Client)
        #expect(c.warmCode)
        #expect(try !load(#"{"warm_code":false}"#).warmCode)
    }

    @Test(arguments: [("[::1]:9000", "::1", 9000), ("0.0.0.0:0", "0.0.0.0", 0), ("localhost:8080", "localhost", 8080)])
    func parsesListenAddresses(_ text: String, _ host: String, _ port: Int) throws {
        let c = try load(#"{"listen":"\#(text)"}"#)
        #expect(c.host == host && c.port == port)
    }

    @Test(arguments: [
        (#"{"lisen":"x"}"#, "$.lisen", "unknown key"),
        (#"{"listen":"nope"}"#, "$.listen", "HOST:PORT"),
        (#"{"upstream_http1":"curl"}"#, "$.upstream_http1", "\"own\""),
        (#"{"warm_code":"yes"}"#, "$.warm_code", "expected true or false"),
        (#"{"tiers":{"light":"demo/demo"}}"#, "$.tiers.light", "expected an array of strings"),
        (#"{"tiers":{"medium":[]}}"#, "$.tiers.medium", "unknown key"),
        (#"{"providers":{"openai":{"base_url":"api.openai.com"}}}"#, "$.providers.openai.base_url", "http"),
        (#"{"limits":{"max_body_bytes":-1}}"#, "$.limits.max_body_bytes", "positive"),
        (#"{"limits":{"listen_backlog":0}}"#, "$.limits.listen_backlog", "somaxconn"),
        (#"{"default_scenario":"x"}"#, "$.default_scenario", "not defined"),
        (#"{"scenarios":{"chat":{"skill_packs":["cal"]}}}"#, "$.scenarios.chat.skill_packs", "not defined"),
        (#"{"scenarios":{"chat":{"max_visible_skills":"5"}}}"#, "$.scenarios.chat.max_visible_skills", "expected an integer"),
    ])
    func badConfigNamesFileAndPath(_ json: String, _ path: String, _ fragment: String) {
        do {
            _ = try load(json)
            Issue.record("expected an error at \(path)")
        } catch let error as JSONShapeError {
            #expect(error.file == "test.json")
            #expect(error.path == path)
            #expect(error.message.contains(fragment), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
