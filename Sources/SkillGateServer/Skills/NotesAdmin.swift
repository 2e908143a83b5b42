import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateSkills
import SkillGateState

/// What `skillgate notes` does for an operator (decision 0121): list the token names that have notes, list one token's
/// notes, delete one of them or all of them. Notes are kept by token *name*, whether or not a token of that name is
/// still active, in the store the gateway's notes skills use (`openStore`: PostgreSQL when the config sets
/// `state.postgres_url`, decision 0122). Apart from reading the command line, so it is tested without the executable.
public enum NotesAdmin {
    /// An operation that found nothing to act on; its text says what to do next.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// What a command prints: `output` on stdout (the data), `note` on stderr (what happened, or a hint).
    public struct Printout: Equatable {
        public var output: String
        public var note: String?
    }

    /// How many of a token's notes `list` shows unless told otherwise.
    public static let defaultLimit = 50
    /// The most `list` shows: the most notes a token can have (`server_skills.notes.max_per_token`'s upper bound).
    public static let maxLimit = NotesSkills.maxNotesPerOwnerLimit

    /// Characters of a note's text shown in the table (the JSON has it whole).
    static let excerptCharacters = 80

    /// The store the command acts on: the one the gateway's notes skills use — PostgreSQL when the config sets
    /// `state.postgres_url`, else the state directory's `state.sqlite` — or, with `sqliteFile`, that file whatever the
    /// config says (the notes left there from before PostgreSQL was set, which the gateway no longer reads).
    public static func openStore(config: GatewayConfig, sqliteFile: Bool) throws -> any NoteStateStore {
        if let url = config.postgresURL, !sqliteFile { return try PostgresStateStore(url: url, answerTimeout: config.postgresAnswerTimeout) }
        return try SQLiteStateStore(stateDirectory: config.stateDirectory)
    }

    /// Every token name with notes and how many: a table, or `{"tokens": [{"token", "notes"}]}`.
    public static func owners(_ store: any NoteStateStore, json: Bool) throws -> Printout {
        let counts = try store.noteCounts()
        if json {
            return Printout(output: JSONValue.object(["tokens": .array(counts.map { ["token": .string($0.tokenName), "notes": .int($0.count)] })]).serialized() + "\n")
        }
        let rows = counts.map { "\($0.tokenName)\t\($0.count)\n" }.joined()
        return Printout(output: "TOKEN\tNOTES\n" + rows,
                        note: counts.isEmpty ? "no token has notes" : "`skillgate notes list --token NAME` shows a token's notes")
    }

    /// `token`'s newest `limit` notes: a table (id, creation time, title, the text's start on one line), or
    /// `{"token", "total", "notes": [{"id", "title", "text", "created_at"}]}` with each text whole.
    public static func list(_ store: any NoteStateStore, token: String, limit: Int, json: Bool) throws -> Printout {
        let notes = try store.listNotes(tokenName: token, limit: limit)
        let total = try store.noteCounts().first { $0.tokenName == token }?.count ?? 0
        let f = Date.ISO8601FormatStyle()
        var note: String?
        if notes.isEmpty {
            note = try noNotes(store, token)
        } else if total > notes.count {
            note = "the newest \(notes.count) of \(total) notes of \"\(token)\"; --limit \(total) shows them all"
        }
        if json {
            let items: [JSONValue] = notes.map { n in
                ["id": .int(Int(n.id)), "title": n.title.map(JSONValue.string) ?? .null, "text": .string(n.text), "created_at": .string(f.format(n.createdAt))]
            }
            return Printout(output: JSONValue.object(["token": .string(token), "total": .int(total), "notes": .array(items)]).serialized() + "\n", note: note)
        }
        let rows = notes.map { n in "\(n.id)\t\(f.format(n.createdAt))\t\(oneLine(n.title ?? "", max: excerptCharacters))\t\(oneLine(n.text, max: excerptCharacters))\n" }
        return Printout(output: "ID\tCREATED\tTITLE\tTEXT\n" + rows.joined(), note: note)
    }

    /// Deletes `token`'s note `id`; a `Failure` when `token` has no such note (an unknown id, or another token's).
    public static func delete(_ store: any NoteStateStore, token: String, id: Int64) throws -> Printout {
        guard try store.deleteNote(tokenName: token, id: id) else {
            let owns = try store.noteCounts().contains { $0.tokenName == token }
            throw Failure(description: owns
                ? "\"\(token)\" has no note #\(id); `skillgate notes list --token \(shellQuoted(token))` shows its notes' ids"
                : try noNotes(store, token))
        }
        return Printout(output: "", note: "deleted note #\(id) of \"\(token)\"")
    }

    /// Deletes every note of `token`; a `Failure` when it has none (most likely a mistyped name).
    public static func deleteAll(_ store: any NoteStateStore, token: String) throws -> Printout {
        let deleted = try store.deleteNotes(tokenName: token)
        guard deleted > 0 else { throw Failure(description: try noNotes(store, token)) }
        return Printout(output: "", note: "deleted \(deleted) note\(deleted == 1 ? "" : "s") of \"\(token)\"")
    }

    /// Says that `token` has no notes and which names do, since a mistyped name is the likely cause.
    static func noNotes(_ store: any NoteStateStore, _ token: String) throws -> String {
        let owners = try store.noteCounts()
        guard !owners.isEmpty else { return "\"\(token)\" has no notes, and no token has any" }
        let names = owners.prefix(20).map { "\($0.tokenName) (\($0.count))" }.joined(separator: ", ")
        return "\"\(token)\" has no notes; token names with notes: \(names)\(owners.count > 20 ? ", ... (`skillgate notes list` shows them all)" : "")"
    }

    /// `text` on one line (newlines and tabs as spaces, so the table stays one row per note), cut at `max` characters,
    /// with every other control character shown, not sent to the terminal: a C0 control as its symbol (ESC as "␛"),
    /// DEL as "␡", a C1 control as "�". A note is any token holder's text, and its ESC sequences reached the
    /// operator's terminal as they were (clearing the screen, retitling the window, writing to the clipboard with OSC 52,
    /// or printing fake rows into the table; decision 0124).
    static func oneLine(_ text: String, max: Int) -> String {
        let flat = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        let cut = flat.count > max ? String(flat.prefix(max - 1)) + "…" : flat
        guard cut.unicodeScalars.contains(where: isControl) else { return cut }
        var shown = String.UnicodeScalarView()
        for s in cut.unicodeScalars {
            switch s.value {
            case 0x00..<0x20: shown.append(Unicode.Scalar(0x2400 + s.value)!)
            case 0x7F: shown.append("\u{2421}")
            case 0x80...0x9F: shown.append("\u{FFFD}")
            default: shown.append(s)
            }
        }
        return String(shown)
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || (0x7F...0x9F).contains(s.value) }

    /// `name` as one shell word, for a command an error message suggests.
    static func shellQuoted(_ name: String) -> String {
        name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.@".contains($0)) } ? name : "'" + name.replacing("'", with: "'\\''") + "'"
    }
}
