import Foundation
import SkillGateCore
import SkillGateSkills
import SkillGateServer
import SkillGateTestSupport

/// A real gateway on 127.0.0.1 (ephemeral port) with the offline demo model, a temporary state
/// directory and client tokens, set up like `Config/skillgate.json`: scenario `chat` (no skills)
/// and `assistant` (server skills: the built-ins, or `skills` when given). The alias `down` points
/// at a provider on a closed port, for upstream failures.
final class ClientGatewayHarness: Sendable {
    let gateway: GatewayServer
    /// A token that may use everything.
    let token: String
    /// A token limited to the scenario `chat`.
    let chatOnlyToken: String
    /// A token limited to the `light` tier.
    let lightOnlyToken: String
    private let directory: String
    private let logPath: String

    var baseURL: URL { URL(string: "http://127.0.0.1:\(gateway.boundPort)")! }

    init(skills: [any Skill]? = nil) throws {
        directory = NSTemporaryDirectory() + "skillgate-client-\(UUID().uuidString)"
        let providers = directory + "/providers"
        try FileManager.default.createDirectory(atPath: providers, withIntermediateDirectories: true)
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(atPath: repository.appendingPathComponent("Providers/demo.json").path, toPath: providers + "/demo.json")
        let down = #"""
        {"id":"down","display_name":"A provider on a closed port","wire_format":"openai-chat",
         "base_url":"http://127.0.0.1:\#(try ClosedPort.make())/v1","auth":"none","models":[{"id":"m","tier":"light","tools":"native"}]}
        """#
        try down.writeAtomically(toFile: providers + "/down.json")
        let pack = skills.map { list in "[" + list.map { "\"\($0.name)\"" }.joined(separator: ",") + "]" }
            ?? #"{"skills":["current_time","calculator","save_note","search_notes","list_notes","delete_note"],"pinned":["current_time"]}"#
        let config = #"""
        {"listen":"127.0.0.1:0","state_dir":"state","key_file":"keys/keys.json","providers_dir":"providers",
         "aliases":{"down":"down/m"},
         "tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light","default_scenario":"chat",
         "scenarios":{"chat":{"skill_packs":[],"default_model":"light"},"assistant":{"skill_packs":["skills"],"default_model":"light"}},
         "skill_packs":{"skills":\#(pack)},
         "server_skills":{"builtin":["current_time","calculator","notes"]},
         "resilience":{"max_attempts":1},
         "limits":{"shutdown_grace_seconds":1}}
        """#
        try config.writeAtomically(toFile: directory + "/skillgate.json")
        logPath = directory + "/requests.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let registry = try skills.map { try SkillRegistry($0) }
        gateway = try GatewayServer(config: try GatewayConfig.load(path: directory + "/skillgate.json"),
                                    logFD: open(logPath, O_WRONLY | O_APPEND), serverSkills: registry)
        token = try gateway.services.tokens.create(name: "app").token
        chatOnlyToken = try gateway.services.tokens.create(name: "chat-only", scenarios: ["chat"]).token
        lightOnlyToken = try gateway.services.tokens.create(name: "light-only", models: ["light"]).token
        try gateway.start()
    }

    /// Path and status of each request's log line so far.
    func requestLog() async -> [(path: String, status: Int)] {
        await gateway.flushLog()
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let json = try? JSONValue.parse(String(line)), let path = json["path"]?.stringValue,
                  let status = json["status"]?.intValue else { return nil }
            return (path, status)
        }
    }

    func stop() async {
        await gateway.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
