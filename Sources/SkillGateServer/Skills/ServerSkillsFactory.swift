import SkillGateCore
import SkillGateHTTP
import SkillGateKeys
import SkillGateSkills
import SkillGateState

/// Builds the registry of server-side skills from `server_skills`.
public enum ServerSkillsFactory {
    /// The enabled built-ins and webhooks. Notes live in `postgres` when the gateway has one (`state.postgres_url`:
    /// every instance sees the same notes, decision 0122), else in `stateStore`, the SQLite file; webhook header secrets
    /// are read from `keys` at call time (so `skillgate keys set` takes effect without a restart).
    /// `storeFailed` receives the notes store's failures, for the log (the skills answer only that notes are unavailable).
    public static func makeRegistry(config: ServerSkillsConfig, keys: KeyStore, stateStore: SQLiteStateStore, postgres: PostgresStateStore? = nil,
                                     http: HTTPClient, storeFailed: @escaping @Sendable (String) -> Void = { _ in }) throws -> SkillRegistry {
        let guarded = GuardedHTTP(http: http)
        var skills: [any Skill] = []
        for name in config.builtin {
            switch name {
            case "current_time": skills.append(CurrentTimeSkill())
            case "calculator": skills.append(CalculatorSkill())
            case "notes": skills += NotesSkills.all(store: StateNotesStore(store: notesStore(stateStore: stateStore, postgres: postgres), failed: storeFailed),
                                             maxNotes: config.maxNotesPerToken, timeout: config.notesTimeout)
            case "http_get":
                guard let settings = config.httpGet else {
                    throw GatewayError.invalidRequest("server_skills.builtin lists http_get without server_skills.http_get; add its allowed_hosts")
                }
                skills.append(HTTPGetSkill(config: settings, client: guarded))
            default:
                throw GatewayError.invalidRequest("unknown built-in skill \"\(name)\"; choose from \(ServerSkillsConfig.builtinNames.joined(separator: ", "))")
            }
        }
        let secrets: @Sendable (String) -> String? = { name in
            _ = try? keys.reloadIfChanged()
            return keys.secret(named: name)
        }
        for webhook in config.webhooks {
            skills.append(WebhookSkill(config: webhook, client: guarded, secrets: secrets))
        }
        return try SkillRegistry(skills)
    }

    /// Where notes are kept, for the notes skills and `skillgate notes` alike: PostgreSQL when the config sets
    /// `state.postgres_url`, else the SQLite state file.
    public static func notesStore(stateStore: SQLiteStateStore, postgres: PostgresStateStore?) -> any NoteStateStore {
        postgres ?? stateStore
    }
}
