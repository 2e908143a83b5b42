import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
import SkillGateSkills
import SkillGateState
@testable import SkillGateServer

@Suite struct ServerSkillsConfigTests {
    static func load(_ json: String) throws -> GatewayConfig {
        try GatewayConfig(json: try JSONValue.parse(json), file: "test.json", baseDirectory: "/etc/skillgate")
    }

    static let full = #"""
    {"server_skills":{"builtin":["current_time","calculator","notes","http_get"],
                      "http_get":{"allowed_hosts":["example.com","*.wikipedia.org"],"max_bytes":1000,"timeout_seconds":3},
                      "webhooks":{"create_ticket":{"description":"Creates a CRM ticket","url":"https://crm.example.com/hooks/ticket",
                                                   "headers":{"Authorization":"Bearer ${secret:CRM_KEY}"},"timeout_seconds":4,
                                                   "max_response_bytes":2048,"private_allowlist":["10.1.0.0/16"],
                                                   "parameters":{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}}}},
     "skill_packs":{"helpers":["current_time","calculator","save_note","create_ticket","http_get"]},
     "scenarios":{"assistant":{"skill_packs":["helpers"]}},"default_scenario":"assistant"}
    """#

    @Test func parsesBuiltinsHTTPGetAndWebhooks() throws {
        let c = try Self.load(Self.full).serverSkills
        #expect(c.builtin == ["current_time", "calculator", "notes", "http_get"])
        #expect(c.httpGet?.allowedHosts == ["example.com", "*.wikipedia.org"])
        #expect(c.httpGet?.maxBytes == 1000 && c.httpGet?.timeout == .seconds(3))
        let w = try #require(c.webhooks.first)
        #expect(w.name == "create_ticket" && w.method == "POST" && w.timeout == .seconds(4) && w.maxResponseBytes == 2048)
        #expect(w.headers.first?.0 == "Authorization" && w.headers.first?.1 == "Bearer ${secret:CRM_KEY}")
        #expect(w.parameters["required"] == ["title"])
        #expect(w.addressPolicy.allowedNetworks == [IPNetwork("10.1.0.0/16")!] && !w.addressPolicy.allowPrivate)
        #expect(c.skillNames == ["current_time", "calculator", "save_note", "search_notes", "list_notes", "delete_note", "http_get", "create_ticket"])
        #expect(c.maxNotesPerToken == NotesSkills.maxNotesPerOwner)
    }

    /// `server_skills.notes.max_per_token` sets the bound the registry's `save_note` keeps (decision 0118), and
    /// `timeout_seconds` every notes skill's timeout (5 s when not set).
    @Test func theNotesBoundIsConfigured() throws {
        let c = try Self.load(#"{"server_skills":{"builtin":["notes"],"notes":{"max_per_token":25000,"timeout_seconds":20}}}"#).serverSkills
        #expect(c.maxNotesPerToken == 25_000)
        #expect(try Self.load(#"{"server_skills":{"builtin":["notes"]}}"#).serverSkills.notesTimeout == .seconds(5))
        let dir = NSTemporaryDirectory() + "skillgate-skills-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let registry = try ServerSkillsFactory.makeRegistry(config: c, keys: try KeyStore(path: dir + "/keys/keys.json"),
                                                            stateStore: try SQLiteStateStore(stateDirectory: dir), http: HTTPClient())
        #expect(registry.all.map(\.name) == NotesSkills.names)
        #expect((registry.skill(named: "save_note") as? SaveNoteSkill)?.maxNotes == 25_000)
        #expect(NotesSkills.names.allSatisfy { registry.skill(named: $0)?.timeout == .seconds(20) })
    }

    /// The shipped config's `builtin` pack shows every notes skill it enables, `delete_note` included.
    @Test func theShippedConfigShowsEveryNotesSkill() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let shipped = try JSONValue.parse(String(contentsOfFile: repository.appendingPathComponent("Config/skillgate.json").path, encoding: .utf8))
        let pack = shipped["skill_packs"]?["builtin"]?["skills"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(shipped["server_skills"]?["builtin"]?.arrayValue?.contains("notes") == true)
        #expect(NotesSkills.names.allSatisfy(pack.contains), "\(pack)")
    }

    @Test func absentMeansNoServerSkills() throws {
        #expect(try Self.load("{}").serverSkills == ServerSkillsConfig())
    }

    @Test(arguments: [
        (#"{"server_skills":{"builtin":["shell"]}}"#, "$.server_skills.builtin[0]", "not a built-in skill"),
        (#"{"server_skills":{"builtin":["http_get"]}}"#, "$.server_skills.builtin", "needs an allowlist"),
        (#"{"server_skills":{"http_get":{"allowed_hosts":["a.com"]}}}"#, "$.server_skills.http_get", "no effect unless"),
        (#"{"server_skills":{"builtin":["http_get"],"http_get":{"allowed_hosts":[]}}}"#, "$.server_skills.http_get.allowed_hosts", "missing or empty"),
        (#"{"server_skills":{"builtin":["http_get"],"http_get":{"allowed_hosts":["https://a.com/"]}}}"#, "$.server_skills.http_get.allowed_hosts[0]", "not a host name"),
        (#"{"server_skills":{"builtin":["http_get"],"http_get":{"allowed_hosts":["a.com"],"max_bytes":0}}}"#, "$.server_skills.http_get.max_bytes", "positive"),
        (#"{"server_skills":{"webhooks":{"t":{"description":"d"}}}}"#, "$.server_skills.webhooks.t.url", "missing"),
        (#"{"server_skills":{"webhooks":{"t":{"description":"d","url":"ftp://x/"}}}}"#, "$.server_skills.webhooks.t.url", "only http and https"),
        (#"{"server_skills":{"webhooks":{"t":{"description":"d","url":"http://x/","method":"TRACE"}}}}"#, "$.server_skills.webhooks.t.method", "expected one of"),
        (#"{"server_skills":{"webhooks":{"t":{"description":"d","url":"http://x/","parameters":{"type":"string"}}}}}"#, "$.server_skills.webhooks.t.parameters", "\"type\": \"object\""),
        (#"{"server_skills":{"webhooks":{"t":{"description":"d","url":"http://x/","retries":2}}}}"#, "$.server_skills.webhooks.t.retries", "unknown key"),
        (#"{"server_skills":{"builtin":["calculator"],"webhooks":{"calculator":{"description":"d","url":"http://x/"}}}}"#, "$.server_skills.webhooks.calculator", "already the name"),
        (#"{"server_skills":{"plugins":[]}}"#, "$.server_skills.plugins", "unknown key"),
        (#"{"server_skills":{"notes":{"max_per_token":10}}}"#, "$.server_skills.notes", "no effect unless"),
        (#"{"server_skills":{"builtin":["notes"],"notes":{"max_per_token":0}}}"#, "$.server_skills.notes.max_per_token", "from 1 to 100000"),
        (#"{"server_skills":{"builtin":["notes"],"notes":{"max_per_token":100001}}}"#, "$.server_skills.notes.max_per_token", "got 100001; the default is 1000"),
        (#"{"server_skills":{"builtin":["notes"],"notes":{"timeout_seconds":0}}}"#, "$.server_skills.notes.timeout_seconds", "must be 1 to 60 seconds"),
        (#"{"server_skills":{"builtin":["notes"],"notes":{"max_per_token":"many"}}}"#, "$.server_skills.notes.max_per_token", "integer"),
        (#"{"server_skills":{"builtin":["notes"],"notes":{"max":10}}}"#, "$.server_skills.notes.max", "unknown key"),
        (#"{"server_skills":{"builtin":["notes"],"webhooks":{"delete_note":{"description":"d","url":"http://x/"}}}}"#, "$.server_skills.webhooks.delete_note", "already the name"),
    ])
    func badServerSkillsConfigNamesFileAndPath(_ json: String, _ path: String, _ fragment: String) {
        do {
            _ = try Self.load(json)
            Issue.record("expected an error at \(path)")
        } catch let error as JSONShapeError {
            #expect(error.file == "test.json")
            #expect(error.path == path)
            #expect(error.message.contains(fragment), "\(error.message)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func factoryRegistersEverySkillByName() throws {
        let dir = NSTemporaryDirectory() + "skillgate-skills-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = try Self.load(Self.full).serverSkills
        let registry = try ServerSkillsFactory.makeRegistry(config: config, keys: try KeyStore(path: dir + "/keys/keys.json"),
                                                            stateStore: try SQLiteStateStore(stateDirectory: dir), http: HTTPClient())
        #expect(registry.all.map(\.name) == config.skillNames)
        #expect(registry.skill(named: "create_ticket")?.id == "webhook.create_ticket")
    }
}

@Suite struct StateNotesStoreTests {
    @Test func notesSurviveARestartAndStayPerToken() async throws {
        let dir = NSTemporaryDirectory() + "skillgate-notes-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let alice = SkillContext(tokenName: "alice", requestId: "1")
        do {
            let skills = NotesSkills.all(store: StateNotesStore(store: try SQLiteStateStore(stateDirectory: dir)))
            _ = try await skills[0].execute(["title": "Wifi", "text": "password is hunter2 (100% secret_ish)"], context: alice)
            _ = try await skills[0].execute(["text": "bob's note"], context: SkillContext(tokenName: "bob", requestId: "2"))
        }
        let reopened = try SQLiteStateStore(stateDirectory: dir)
        let skills = Dictionary(uniqueKeysWithValues: NotesSkills.all(store: StateNotesStore(store: reopened)).map { ($0.name, $0) })
        let found = try await skills["search_notes"]!.execute(["query": "HUNTER2 100%"], context: alice)
        #expect(found.text.contains("Wifi: password is hunter2"), "\(found.text)")
        #expect(try await skills["search_notes"]!.execute(["query": "_ish"], context: alice).payload?["notes"]?.arrayValue?.count == 1)
        #expect(try await skills["search_notes"]!.execute(["query": "%"], context: alice).payload?["notes"]?.arrayValue?.count == 1)
        #expect(try await skills["search_notes"]!.execute(["query": "x%y"], context: alice).payload?["notes"]?.arrayValue?.count == 0)
        let listed = try await skills["list_notes"]!.execute([:], context: alice)
        #expect(listed.payload?["notes"]?.arrayValue?.count == 1 && !listed.text.contains("bob"))
        #expect(try reopened.schemaVersion() >= 2)  // notes arrived in step 2
    }
}
