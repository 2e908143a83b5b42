import Testing
import SkillGateCore
@testable import SkillGateServer

/// The `responses` section: retention and each token's bound on stored conversations (decisions 0028, 0119).
@Suite struct ResponsesConfigTests {
    static func load(_ responses: String) throws(JSONShapeError) -> GatewayConfig {
        let json = try! JSONValue.parse(#"{"responses":\#(responses)}"#)
        return try GatewayConfig(json: json, file: "test.json", baseDirectory: "/tmp")
    }

    @Test func defaultsKeepADayAndAGiBPerToken() throws {
        let config = try Self.load("{}")
        #expect(config.responses.retentionHours == 24)
        #expect(config.responses.maxMiBPerToken == 1024)
        #expect(config.responses.maxBytesPerToken == 1 << 30)
    }

    @Test(arguments: [8, 64, 1 << 20])
    func theBoundIsRead(_ mib: Int) throws {
        #expect(try Self.load(#"{"max_mib_per_token":\#(mib)}"#).responses.maxBytesPerToken == mib << 20)
    }

    @Test(arguments: ["7", "0", "-1", "1048577", "1.5", "\"64\""])
    func aBoundOutOfRangeOrNotAnIntegerIsRefusedByName(_ value: String) {
        do {
            _ = try Self.load(#"{"max_mib_per_token":\#(value)}"#)
            Issue.record("accepted \(value)")
        } catch {
            #expect(error.description.contains("max_mib_per_token"), "\(error.description)")
        }
    }
}
