import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// The console's files (decision 0030): served with a strict Content-Security-Policy from `console.assets_dir`,
/// only files that exist there, 404 when `console.enabled` is false; and the files themselves stay small and free
/// of inline script, inline style and markup-parsing sinks.
@Suite struct ConsoleGatewayTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let assets = repo.appendingPathComponent("Console").path

    static func get(_ h: TeamHarness, _ path: String, method: String = "GET") async throws -> HTTPResponse {
        try await h.http.send(HTTPRequest(method: method, url: h.base + path))
    }

    @Test(arguments: [("/console", "text/html; charset=utf-8"), ("/console/", "text/html; charset=utf-8"),
                      ("/console/js/app.js", "text/javascript; charset=utf-8"), ("/console/console.css", "text/css; charset=utf-8"),
                      ("/console/icon.svg", "image/svg+xml")])
    func consoleFilesCarryAStrictContentSecurityPolicy(_ path: String, _ type: String) async throws {
        let h = try TeamHarness(extraConfig: #","console":{"assets_dir":"\#(Self.assets)"}"#)
        defer { Task { await h.stop() } }
        let r = try await Self.get(h, path)
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == type)
        let csp = try #require(r.headers["content-security-policy"])
        #expect(csp.contains("default-src 'none'") && csp.contains("script-src 'self'") && csp.contains("style-src 'self'")
                && csp.contains("connect-src 'self'") && csp.contains("frame-ancestors 'none'"))
        #expect(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"))
        #expect(r.headers["x-content-type-options"] == "nosniff" && r.headers["referrer-policy"] == "no-referrer")
        #expect(r.headers["set-cookie"] == nil)
    }

    @Test(arguments: ["/console/../Package.swift", "/console/js/../../README.md", "/console/nothing.js", "/console/%2e%2e/Package.swift"])
    func onlyTheConsolesOwnFilesAreServed(_ path: String) async throws {
        let h = try TeamHarness(extraConfig: #","console":{"assets_dir":"\#(Self.assets)"}"#)
        defer { Task { await h.stop() } }
        let r = try await Self.get(h, path)
        #expect(r.status == 404 || r.status == 400, "\(r.status)")
        #expect(!String(decoding: r.body, as: UTF8.self).contains("swift-tools-version"))
    }

    @Test func theConsoleAcceptsGetOnly() async throws {
        let h = try TeamHarness(extraConfig: #","console":{"assets_dir":"\#(Self.assets)"}"#)
        defer { Task { await h.stop() } }
        let r = try await Self.get(h, "/console", method: "POST")
        #expect(r.status == 405 && r.headers["allow"] == "GET, HEAD")
    }

    @Test func turnedOffTheConsoleIs404AndTheAdminAPIStays() async throws {
        let h = try TeamHarness(extraConfig: #","console":{"enabled":false,"assets_dir":"\#(Self.assets)"}"#)
        defer { Task { await h.stop() } }
        let admin = try h.server.services.tokens.create(name: "console", admin: true).token
        let r = try await Self.get(h, "/console")
        #expect(r.status == 404)
        #expect(String(decoding: r.body, as: UTF8.self).contains("console.enabled is false"))
        let api = try await h.http.send(HTTPRequest(method: "GET", url: h.base + "/admin/api/whoami", headers: ["authorization": "Bearer \(admin)"]))
        #expect(api.status == 200)
    }

    @Test func missingFilesTurnTheConsoleOffSayingWhere() async throws {
        let h = try TeamHarness(extraConfig: #","console":{"assets_dir":"no-such-dir"}"#)
        defer { Task { await h.stop() } }
        let r = try await Self.get(h, "/console")
        #expect(r.status == 404)
        let text = String(decoding: r.body, as: UTF8.self)
        #expect(text.contains("no-such-dir") && text.contains("console.assets_dir"))
    }

    @Test func aConfigWithAnEmptyAssetsDirIsRefused() throws {
        let json = try JSONValue.parse(#"{"console":{"assets_dir":""}}"#)
        #expect(throws: JSONShapeError.self) { try GatewayConfig(json: json, file: "t.json", baseDirectory: "/tmp") }
    }

    @Test func theFilesAreSmallWithoutInlineScriptStyleOrMarkupSinks() throws {
        let assets = try #require(ConsoleAssets.load(directory: Self.assets))
        print("console assets: \(assets.files.count) files, \(assets.totalBytes) bytes")
        #expect(assets.totalBytes < 200_000)
        #expect(assets.files["index.html"] != nil && assets.files["js/app.js"] != nil)
        for (path, file) in assets.files {
            // The SVG namespace is a name, not an address anything is loaded from.
            let text = String(decoding: file.bytes, as: UTF8.self).replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
            if path.hasSuffix(".html") {
                #expect(!text.contains("<script>") && !text.contains(" style=") && !text.contains("<style")
                        && text.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil, "\(path)")
                #expect(!text.contains("http://") && !text.contains("https://"), "\(path) loads nothing from elsewhere")
            }
            if path.hasSuffix(".js") {
                for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
                    #expect(!text.contains(sink), "\(path) uses \(sink)")
                }
                #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("document.cookie"), "\(path)")
            }
        }
    }
}
