import Testing
import SkillGateCore
@testable import SkillGateServer

/// `cors` in the config (decision 0095): origins normalised as a browser sends them, and every mistake named with its
/// path and what to write instead.
@Suite struct CrossOriginConfigTests {
    static func load(_ cors: String) throws(JSONShapeError) -> GatewayConfig {
        let json = try! JSONValue.parse(#"{"cors":\#(cors)}"#)
        return try GatewayConfig(json: json, file: "test.json", baseDirectory: "/tmp")
    }

    @Test(arguments: [
        ("https://app.example.com", "https://app.example.com"),
        ("HTTPS://App.Example.COM", "https://app.example.com"),
        ("https://app.example.com:443", "https://app.example.com"),
        ("http://localhost:80", "http://localhost"),
        ("http://localhost:5173", "http://localhost:5173"),
        ("https://app.example.com:8443", "https://app.example.com:8443"),
        ("http://[::1]:3000", "http://[::1]:3000"),
        ("https://xn--bcher-kva.example", "https://xn--bcher-kva.example"),
    ])
    func originsAreKeptAsABrowserSendsThem(_ written: String, _ normal: String) throws {
        #expect(try GatewayConfig.normalizedOrigin(written).get() == normal)
    }

    @Test(arguments: [
        ("https://app.example.com/", "write \"https://app.example.com\""),
        ("https://app.example.com/path", "no path"),
        ("app.example.com", "http or https"),
        ("null", "\"null\""),
        ("ftp://x.example", "http or https"),
        ("https://", "letters, digits"),
        ("https://bad host.example", "letters, digits"),
        ("https://bücher.example", "xn--"),
        ("https://x.example:0", "from 1 to 65535"),
        ("https://x.example:99999", "from 1 to 65535"),
        ("https://x.example:", "from 1 to 65535"),
        ("http://[::1", "closing `]`"),
    ])
    func notAnOriginIsNamed(_ written: String, _ says: String) throws {
        switch GatewayConfig.normalizedOrigin(written) {
        case .success(let normal): Issue.record("accepted \(written) as \(normal)")
        case .failure(let problem): #expect(problem.message.contains(says), "\(problem.message)")
        }
    }

    @Test func aListIsRead() throws {
        let config = try Self.load(#"{"allowed_origins":["https://A.example","*","http://localhost:3000"],"max_age_seconds":0}"#)
        #expect(config.crossOrigin == GatewayConfig.CrossOrigin(anyOrigin: true, origins: ["https://a.example", "http://localhost:3000"], maxAgeSeconds: 0))
        #expect(try Self.load(#"{"allowed_origins":["https://a.example"]}"#).crossOrigin?.maxAgeSeconds == 600)
        #expect(try GatewayConfig(json: ["listen": "127.0.0.1:1"], file: "t", baseDirectory: "/tmp").crossOrigin == nil)
    }

    @Test(arguments: [
        (#"{}"#, "$.cors.allowed_origins", "is required"),
        (#"{"allowed_origins":[]}"#, "$.cors.allowed_origins", "is required"),
        (#"{"allowed_origins":["https://a.example/"]}"#, "$.cors.allowed_origins[0]", "no path"),
        (#"{"allowed_origins":["https://a.example"],"max_age_seconds":100000}"#, "$.cors.max_age_seconds", "from 0 to 86400"),
        (#"{"allowed_origins":["https://a.example"],"allow_credentials":true}"#, "$.cors", "unknown key"),
    ])
    func mistakesNameTheirPath(_ cors: String, _ path: String, _ says: String) {
        do {
            _ = try Self.load(cors)
            Issue.record("accepted \(cors)")
        } catch {
            #expect(error.path.hasPrefix(path), "\(error.path)")
            #expect(error.message.contains(says), "\(error.message)")
        }
    }
}
