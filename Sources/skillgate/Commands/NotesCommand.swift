import FoundationEssentials
import Glibc
import Dispatch
import SkillGateServer
import SkillGateState

/// `skillgate notes`: the notes the built-in notes skills keep per token, for an operator (decision 0121).
enum NotesCommand {
    static let help = """
    Usage: skillgate notes list                        token names with notes, and how many each has
           skillgate notes list --token NAME [--limit N]
                                                       NAME's newest notes: id, created, title, the text's start
           skillgate notes delete --token NAME --id N  deletes NAME's note #N
           skillgate notes delete --token NAME --all   deletes every note of NAME (a user's "delete my data")
    Options: --config PATH, --json (list: one JSON object, each note's text whole),
             --sqlite (act on the state directory's state.sqlite even when state.postgres_url is set)

    --token is the client token's name (notes are kept by name: they outlive a revoked token, and a new
    token given the same name sees them). --limit is 1 to 100000 (default 50): a token keeps at most server_skills.notes.max_per_token notes.
    Notes live where the gateway's notes skills keep them: in PostgreSQL when the config sets
    state.postgres_url (shared by every instance), else in the state directory's state.sqlite. Notes saved
    in state.sqlite before state.postgres_url was set stay there, unused and not copied: --sqlite lists and
    deletes them. A running gateway sees the changes at once.
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, options: ["--config", "--token", "--limit", "--id"], flags: ["--all", "--json", "--sqlite"])
        if args.wantsHelp || args.positionals.isEmpty { print(help); return args.wantsHelp ? 0 : 2 }
        guard args.positionals.count == 1, ["list", "delete"].contains(args.positionals[0]) else {
            throw UsageError(message: "expected `notes list [--token NAME]` or `notes delete --token NAME --id N|--all`")
        }
        let token = args.value("--token")
        if let token, token.isEmpty { throw UsageError(message: "--token needs the token's name (as `skillgate tokens list` shows it)") }
        let printout: NotesAdmin.Printout
        if args.positionals[0] == "list" {
            for option in ["--id", "--all"] where args.value(option) != nil || args.flags.contains(option) {
                throw UsageError(message: "\(option) goes with `notes delete`; `notes list` takes --token, --limit and --json")
            }
            let limit = try limit(args)
            let store = try openStore(args)
            if let token {
                printout = try NotesAdmin.list(store, token: token, limit: limit ?? NotesAdmin.defaultLimit, json: args.flags.contains("--json"))
            } else {
                guard limit == nil else { throw UsageError(message: "--limit goes with --token NAME (a token's notes)") }
                printout = try NotesAdmin.owners(store, json: args.flags.contains("--json"))
            }
        } else {
            guard let token else { throw UsageError(message: "notes delete needs --token NAME; `skillgate notes list` shows the names with notes") }
            for option in ["--limit", "--json"] where args.value(option) != nil || args.flags.contains(option) {
                throw UsageError(message: "\(option) goes with `notes list`; `notes delete` takes --token with --id N or --all")
            }
            switch (args.value("--id"), args.flags.contains("--all")) {
            case (let id?, false):
                guard let n = Int64(id), n > 0 else {
                    throw UsageError(message: "--id takes a note's number, like 12 for #12 (got \"\(id)\"); `skillgate notes list --token NAME` shows them")
                }
                printout = try NotesAdmin.delete(try openStore(args), token: token, id: n)
            case (nil, true):
                printout = try NotesAdmin.deleteAll(try openStore(args), token: token)
            case (_?, true):
                throw UsageError(message: "give --id N (one note) or --all (every note of the token), not both")
            case (nil, false):
                throw UsageError(message: "notes delete needs --id N (one note) or --all (every note of the token)")
            }
        }
        print(printout.output, terminator: "")
        if let note = printout.note { printErr(note) }
        return 0
    }

    /// `--limit`: a whole number from 1 to the most notes a token may keep; nil when not given.
    static func limit(_ args: Arguments) throws -> Int? {
        guard let text = args.value("--limit") else { return nil }
        guard let n = Int(text), (1...NotesAdmin.maxLimit).contains(n) else {
            throw UsageError(message: "--limit must be a whole number from 1 to \(NotesAdmin.maxLimit) (got \"\(text)\")")
        }
        return n
    }

    /// The store the gateway's notes skills use (PostgreSQL with state.postgres_url), or with --sqlite the state file.
    static func openStore(_ args: Arguments) throws -> any NoteStateStore {
        try NotesAdmin.openStore(config: CLI.loadConfig(args), sqliteFile: args.flags.contains("--sqlite"))
    }
}
