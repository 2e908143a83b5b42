import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

/// The notes skills (`save_note`, `search_notes`, `list_notes`, `delete_note`), each caller (token) seeing only its own
/// notes.
public enum NotesSkills {
    /// Longest note text, in characters.
    public static let maxTextLength = 10_000
    /// The most notes one caller (token) keeps unless `server_skills.notes.max_per_token` says otherwise. Without a
    /// bound, an ordinary token calling `save_note` through `/mcp` (no model call, so no budget applies) wrote 4,000
    /// notes of 10 KB in ten seconds on one connection, without end (decision 0113). At the bound a save is refused
    /// with a message the model and the client read; `delete_note` makes room (decision 0118).
    public static let maxNotesPerOwner = 1_000
    /// The highest bound the config accepts: `search_notes` reads all of a token's notes, so 100,000 notes of 10,000
    /// characters (a gigabyte) per search is already more than a state file should serve.
    public static let maxNotesPerOwnerLimit = 100_000
    /// Longest title, in characters.
    public static let maxTitleLength = 200
    /// Longest search query, in characters. A query is matched with `LIKE`, and SQLite refuses a pattern over 50,000
    /// bytes with an error that quoted the whole statement back to the model and the client.
    public static let maxQueryLength = 500
    /// The most UTF-8 bytes per character the bounds above allow: a text, title or query is also held to four bytes per
    /// character of its bound (the longest character without combining marks). The bounds count characters (grapheme
    /// clusters), and one character can carry any number of combining marks: "a" with 100,000 accents is one
    /// character of 200,001 bytes, which passed `maxTextLength` before (decision 0124).
    public static let maxBytesPerCharacter = 4

    /// `text` cut to at most `characters` characters and `characters × maxBytesPerCharacter` UTF-8 bytes, at a
    /// character's end.
    static func prefix(_ text: String, characters: Int) -> String {
        var bytes = 0, end = text.startIndex, count = 0
        for i in text.indices {
            guard count < characters else { break }
            let next = text.index(after: i)
            bytes += text.utf8.distance(from: i, to: next)
            guard bytes <= characters * maxBytesPerCharacter else { break }
            count += 1
            end = next
        }
        return String(text[..<end])
    }

    /// Whether `text` is within `characters` characters and `characters × maxBytesPerCharacter` UTF-8 bytes.
    static func fits(_ text: String, characters: Int) -> Bool {
        text.utf8.count <= characters * maxBytesPerCharacter && text.count <= characters
    }

    /// The tool names of the notes skills, in the order `all` gives them.
    public static let names = ["save_note", "search_notes", "list_notes", "delete_note"]

    /// The four skills over `store`; a caller keeps at most `maxNotes` notes, and a call may take `timeout`.
    public static func all(store: any NotesStore, maxNotes: Int = maxNotesPerOwner, timeout: Duration = defaultTimeout) -> [any Skill] {
        let access = NotesAccess(store: store, calls: storeCalls(), timeout: timeout)
        return [SaveNoteSkill(access: access, maxNotes: maxNotes), SearchNotesSkill(access: access),
                ListNotesSkill(access: access), DeleteNoteSkill(access: access)]
    }

    /// How long a notes call may take unless the config says otherwise (`server_skills.notes.timeout_seconds`).
    public static let defaultTimeout: Duration = .seconds(5)

    /// A new queue where the notes skills of one store call it: blocking work, not a thread of Swift's shared pool
    /// (two on a two-core machine), which a PostgreSQL round trip — or a connection timeout while the database is away
    /// — would hold from every other task of the gateway (decision 0122). One call at a time per store (each store has
    /// one connection for notes anyway); one queue per store, so the stores of several gateways in one process (tests)
    /// never wait for each other.
    static func storeCalls() -> BlockingWorkQueue { BlockingWorkQueue(label: "skillgate.notes") }

    static func render(_ notes: [Note], empty: String) -> SkillResult {
        guard !notes.isEmpty else { return SkillResult(text: empty, payload: ["notes": []]) }
        let f = Date.ISO8601FormatStyle()
        let lines = notes.map { n in
            "#\(n.id) [\(f.format(n.createdAt))] " + (n.title.map { "\($0): " } ?? "") + String(n.text.prefix(500))
        }
        let payload: [JSONValue] = notes.map { n in
            ["id": .int(n.id), "title": n.title.map(JSONValue.string) ?? .null, "text": .string(n.text), "created_at": .string(f.format(n.createdAt))]
        }
        return SkillResult(text: lines.joined(separator: "\n"), payload: ["notes": .array(payload)])
    }

    static func limit(_ arguments: JSONValue, default value: Int) -> Int {
        min(max(arguments["limit"]?.intValue ?? value, 1), 50)
    }
}

/// `save_note`: stores a note for the calling token.
public struct SaveNoteSkill: Skill {
    public let id = "builtin.save_note"
    public let name = "save_note"
    public let description = "Saves a note for the user (text and an optional title) so it can be found later with search_notes or list_notes, and removed with delete_note."
    public let parameters: JSONValue = [
        "type": "object",
        "properties": ["title": ["type": "string", "description": "a short title"], "text": ["type": "string", "description": "the note itself"]],
        "required": ["text"],
        "additionalProperties": false,
    ]
    public let version = "1.0"
    public let requiresConfirmation = false
    /// Adds a note and changes no other: not destructive; saving twice makes two notes.
    public let annotations = SkillAnnotations(title: "Save a note", readOnly: false, destructive: false, idempotent: false, openWorld: false)
    let access: NotesAccess
    /// The most notes a caller keeps (`server_skills.notes.max_per_token`).
    public let maxNotes: Int
    /// How long a call may take (`server_skills.notes.timeout_seconds`; 5 s by default).
    public var timeout: Duration { access.timeout }

    public func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        let text = arguments["text"]?.stringValue?.trimmingWhitespace() ?? ""
        guard !text.isEmpty else { return SkillResult(text: "The note's \"text\" is empty; pass the text to save.", isError: true) }
        guard NotesSkills.fits(text, characters: NotesSkills.maxTextLength) else {
            let bytes = NotesSkills.maxTextLength * NotesSkills.maxBytesPerCharacter
            return SkillResult(text: "The note is \(text.count) characters (\(text.utf8.count) bytes in UTF-8) long; the limit is \(NotesSkills.maxTextLength) characters and \(bytes) bytes. Shorten it or split it into several notes.", isError: true)
        }
        var title = arguments["title"]?.stringValue?.trimmingWhitespace()
        guard !text.utf8.contains(0), title?.utf8.contains(0) != true else {
            return SkillResult(text: "The note holds the NUL character (U+0000), which notes cannot keep (PostgreSQL cannot store it, and a search stops at it); remove it and save again.", isError: true)
        }
        if let t = title, !NotesSkills.fits(t, characters: NotesSkills.maxTitleLength) { title = NotesSkills.prefix(t, characters: NotesSkills.maxTitleLength).trimmingWhitespace() }
        if title?.isEmpty == true { title = nil }
        let (owner, maxNotes, saved) = (context.tokenName, self.maxNotes, title)
        guard let note = try await access.run({ try $0.save(owner: owner, title: saved, text: text, maxNotes: maxNotes) }) else {
            return SkillResult(text: "Not saved: this user already has \(maxNotes) notes, the most this gateway keeps per token (server_skills.notes.max_per_token). Tell the user; delete notes that are no longer needed with delete_note (list_notes and search_notes give their ids) and save again, or add to an existing note's topic instead; the operator can raise the bound.", isError: true)
        }
        return SkillResult(text: "Saved note #\(note.id)" + (title.map { " \"\($0)\"" } ?? "") + ".",
                           payload: ["id": .int(note.id), "title": title.map(JSONValue.string) ?? .null])
    }
}

/// `search_notes`: finds the calling token's notes containing every word of a query.
public struct SearchNotesSkill: Skill {
    public let id = "builtin.search_notes"
    public let name = "search_notes"
    public let description = "Searches the user's saved notes; returns notes whose title or text contains every word of the query, newest first."
    public let parameters: JSONValue = [
        "type": "object",
        "properties": ["query": ["type": "string", "description": "words to look for"], "limit": ["type": "integer", "description": "at most this many notes (1-50, default 10)"]],
        "required": ["query"],
        "additionalProperties": false,
    ]
    public let version = "1.0"
    public let requiresConfirmation = false
    public let annotations = SkillAnnotations.readOnly("Search notes", openWorld: false)
    let access: NotesAccess
    /// How long a call may take (`server_skills.notes.timeout_seconds`; 5 s by default).
    public var timeout: Duration { access.timeout }

    public func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        let query = arguments["query"]?.stringValue ?? ""
        guard NotesSkills.fits(query, characters: NotesSkills.maxQueryLength) else {
            let bytes = NotesSkills.maxQueryLength * NotesSkills.maxBytesPerCharacter
            return SkillResult(text: "The query is \(query.count) characters (\(query.utf8.count) bytes in UTF-8) long; the limit is \(NotesSkills.maxQueryLength) characters and \(bytes) bytes. Search for a few distinctive words instead.", isError: true)
        }
        guard !query.utf8.contains(0) else {
            return SkillResult(text: "The query holds the NUL character (U+0000), which no note holds; remove it and search again.", isError: true)
        }
        let words = query.split(whereSeparator: { $0.isWhitespace }).prefix(8).map(String.init)
        guard !words.isEmpty else { return SkillResult(text: "The \"query\" is empty; pass words to search for, or use list_notes.", isError: true) }
        let (owner, limit) = (context.tokenName, NotesSkills.limit(arguments, default: 10))
        let notes = try await access.run { try $0.search(owner: owner, words: words, limit: limit) }
        return NotesSkills.render(notes, empty: "No notes contain \"\(words.joined(separator: " "))\".")
    }
}

/// `list_notes`: the calling token's newest notes.
public struct ListNotesSkill: Skill {
    public let id = "builtin.list_notes"
    public let name = "list_notes"
    public let description = "Lists the user's most recent saved notes, newest first."
    public let parameters: JSONValue = [
        "type": "object",
        "properties": ["limit": ["type": "integer", "description": "at most this many notes (1-50, default 10)"]],
        "additionalProperties": false,
    ]
    public let version = "1.0"
    public let requiresConfirmation = false
    public let annotations = SkillAnnotations.readOnly("List notes", openWorld: false)
    let access: NotesAccess
    /// How long a call may take (`server_skills.notes.timeout_seconds`; 5 s by default).
    public var timeout: Duration { access.timeout }

    public func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        let (owner, limit) = (context.tokenName, NotesSkills.limit(arguments, default: 10))
        let notes = try await access.run { try $0.list(owner: owner, limit: limit) }
        return NotesSkills.render(notes, empty: "There are no saved notes yet.")
    }
}
