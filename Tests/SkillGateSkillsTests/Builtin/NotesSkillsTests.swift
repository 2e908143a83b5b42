import Testing
import SkillGateCore
@testable import SkillGateSkills

@Suite struct NotesSkillsTests {
    let store = InMemoryNotesStore()
    var skills: [String: any Skill] { Dictionary(uniqueKeysWithValues: NotesSkills.all(store: store).map { ($0.name, $0) }) }
    let alice = SkillContext(tokenName: "alice", requestId: "1")
    let bob = SkillContext(tokenName: "bob", requestId: "2")

    @Test func notesArePerToken() async throws {
        let save = skills["save_note"]!, search = skills["search_notes"]!, list = skills["list_notes"]!
        let saved = try await save.execute(["title": "Groceries", "text": "milk, eggs, Coffee beans"], context: alice)
        #expect(!saved.isError && saved.text.contains("Saved note #1"))
        _ = try await save.execute(["text": "call the dentist"], context: alice)
        _ = try await save.execute(["text": "bob's secret coffee plan"], context: bob)

        let found = try await search.execute(["query": "coffee MILK"], context: alice)
        #expect(found.text.contains("Groceries") && !found.text.contains("bob"))
        #expect(found.payload?["notes"]?.arrayValue?.count == 1)
        let bobs = try await search.execute(["query": "coffee"], context: bob)
        #expect(bobs.text.contains("bob's secret") && !bobs.text.contains("Groceries"))

        let listed = try await list.execute(["limit": 1], context: alice)
        #expect(listed.text.contains("dentist") && !listed.text.contains("Groceries"))
        let none = try await list.execute([:], context: SkillContext(tokenName: "carol", requestId: "3"))
        #expect(none.text.contains("no saved notes"))
    }

    @Test func rejectsEmptyAndOversizedNotes() async throws {
        let save = skills["save_note"]!
        #expect(try await save.execute(["text": "   "], context: alice).isError)
        let huge = String(repeating: "x", count: NotesSkills.maxTextLength + 1)
        #expect(try await save.execute(["text": .string(huge)], context: alice).isError)
        #expect(try await skills["search_notes"]!.execute(["query": ""], context: alice).isError)
        // A query SQLite's LIKE would refuse (over 50,000 bytes) is refused first, with advice, never as SQL.
        let long = try await skills["search_notes"]!.execute(["query": .string(String(repeating: "q", count: 50_001))], context: alice)
        #expect(long.isError && long.text.contains("the limit is \(NotesSkills.maxQueryLength)") && !long.text.contains("SELECT"), "\(long.text)")
        let atTheLimit = try await skills["search_notes"]!.execute(["query": .string(String(repeating: "q", count: NotesSkills.maxQueryLength))], context: alice)
        #expect(!atTheLimit.isError)
    }

    /// The bounds count characters, and one character may carry any number of combining marks: a note, title or query
    /// of a few "characters" of 100 KB each passed them (decision 0124). They are held to four bytes per character too.
    @Test func combiningMarksDoNotStretchTheBounds() async throws {
        let save = skills["save_note"]!, search = skills["search_notes"]!
        let zalgo = "a" + String(repeating: "\u{301}", count: 50_000)  // one character, 100,001 bytes
        #expect(zalgo.count == 1)
        let refused = try await save.execute(["text": .string(zalgo)], context: alice)
        #expect(refused.isError && refused.text.contains("40000 bytes") && refused.text.contains("split it"), "\(refused.text)")
        #expect(try store.list(owner: "alice", limit: 10).isEmpty)
        // A title is cut to its bound in bytes too, at a character's end.
        let titled = try await save.execute(["text": "body", "title": .string("Tïtle " + zalgo)], context: alice)
        #expect(!titled.isError)
        let title = try #require(try store.list(owner: "alice", limit: 1).first?.title)
        #expect(title == "Tïtle" && title.utf8.count <= NotesSkills.maxTitleLength * NotesSkills.maxBytesPerCharacter, "\(title.utf8.count)")
        let query = try await search.execute(["query": .string(zalgo)], context: alice)
        #expect(query.isError && query.text.contains("2000 bytes") && query.text.contains("distinctive words"), "\(query.text)")
        // Text within the bounds, accents and all, is saved as written.
        let accented = String(repeating: "e\u{301}", count: NotesSkills.maxTextLength)  // 10,000 characters, 30,000 bytes
        #expect(try await save.execute(["text": .string(accented)], context: alice).isError == false)
    }

    /// NUL is refused with what to do, the same on every store: PostgreSQL cannot store it, and SQLite stored it but its
    /// search stopped at it (a note "x\0secret" was not found by "secret", and a query "\0" found every note).
    @Test func theNulCharacterIsRefused() async throws {
        let save = skills["save_note"]!, search = skills["search_notes"]!
        let text = try await save.execute(["text": "x\u{0}secret"], context: alice)
        #expect(text.isError && text.text.contains("NUL") && text.text.contains("remove it and save again"), "\(text.text)")
        let title = try await save.execute(["text": "fine", "title": "a\u{0}"], context: alice)
        #expect(title.isError && title.text.contains("NUL"), "\(title.text)")
        #expect(try store.list(owner: "alice", limit: 10).isEmpty)
        _ = try await save.execute(["text": "milk"], context: alice)
        let query = try await search.execute(["query": "\u{0}"], context: alice)
        #expect(query.isError && query.text.contains("remove it and search again"), "\(query.text)")
    }

    /// A token keeps at most 1,000 notes: the next save is an error result the model reads, nothing is stored, and
    /// another token still saves (decision 0113: without it, `save_note` through `/mcp` filled the disk unbounded).
    @Test func aTokenKeepsAtMostAThousandNotes() async throws {
        let save = skills["save_note"]!
        for n in 1...1_000 {
            let saved = try await save.execute(["text": .string("note \(n)")], context: alice)
            #expect(!saved.isError, "\(saved.text)")
        }
        let refused = try await save.execute(["text": "one too many"], context: alice)
        #expect(refused.isError && refused.text.contains("1000 notes"), "\(refused.text)")
        let newest = try await skills["list_notes"]!.execute(["limit": 1], context: alice)
        #expect(newest.text.contains("note 1000") && !newest.text.contains("one too many"))
        #expect(try await save.execute(["text": "bob's first"], context: bob).isError == false)
    }
}

/// `delete_note` and the configurable bound (decision 0118).
@Suite struct DeleteNoteSkillTests {
    let store = InMemoryNotesStore()
    let alice = SkillContext(tokenName: "alice", requestId: "1")
    let bob = SkillContext(tokenName: "bob", requestId: "2")

    func skills(maxNotes: Int = NotesSkills.maxNotesPerOwner) -> [String: any Skill] {
        Dictionary(uniqueKeysWithValues: NotesSkills.all(store: store, maxNotes: maxNotes).map { ($0.name, $0) })
    }

    @Test func theNotesSkillsAreTheFourNamed() {
        #expect(NotesSkills.all(store: store).map(\.name) == NotesSkills.names)
        #expect(NotesSkills.names == ["save_note", "search_notes", "list_notes", "delete_note"])
    }

    /// Another token's note is answered exactly like an id that does not exist, and stays.
    @Test func aCallerDeletesOnlyItsOwnNotes() async throws {
        let s = skills()
        let delete = try #require(s["delete_note"])
        let saved = try await s["save_note"]!.execute(["text": "alice's plan"], context: alice)
        let id = try #require(saved.payload?["id"]?.intValue)
        let unknownId = id + 1000
        let othersNote = try await delete.execute(["id": .int(id)], context: bob)
        let unknown = try await delete.execute(["id": .int(unknownId)], context: bob)
        #expect(othersNote.isError && unknown.isError)
        #expect(othersNote.text.replacingOccurrences(of: "#\(id) ", with: "#N ") == unknown.text.replacingOccurrences(of: "#\(unknownId) ", with: "#N "),
                "\(othersNote.text) / \(unknown.text)")
        #expect(othersNote.text.contains("list_notes") && othersNote.payload == nil)
        #expect(try await s["list_notes"]!.execute([:], context: alice).text.contains("alice's plan"))

        let deleted = try await delete.execute(["id": .int(id)], context: alice)
        #expect(!deleted.isError && deleted.text == "Deleted note #\(id).")
        #expect(deleted.payload == ["id": .int(id), "deleted": true])
        #expect(try await s["list_notes"]!.execute([:], context: alice).text.contains("no saved notes"))
        let again = try await delete.execute(["id": .int(id)], context: alice)
        #expect(again.isError && again.text.contains("no note #\(id)"))
        let missing = try await delete.execute([:], context: alice)
        #expect(missing.isError && missing.text.contains("\"id\""))
    }

    /// At the configured bound the save is refused with a message naming the setting and `delete_note`; a delete makes
    /// room for the next save.
    @Test func theBoundIsConfigurableAndADeleteMakesRoom() async throws {
        let s = skills(maxNotes: 3)
        var ids: [Int] = []
        for n in 1...3 {
            let saved = try await s["save_note"]!.execute(["text": .string("note \(n)")], context: alice)
            ids.append(try #require(saved.payload?["id"]?.intValue, "\(saved.text)"))
        }
        let refused = try await s["save_note"]!.execute(["text": "one too many"], context: alice)
        #expect(refused.isError && refused.text.contains("already has 3 notes"), "\(refused.text)")
        #expect(refused.text.contains("server_skills.notes.max_per_token") && refused.text.contains("delete_note"), "\(refused.text)")
        #expect(!refused.text.contains("remove old notes"), "no skill removes notes by that name: \(refused.text)")
        #expect(try await s["save_note"]!.execute(["text": "bob's first"], context: bob).isError == false)

        #expect(try await s["delete_note"]!.execute(["id": .int(ids[0])], context: alice).isError == false)
        let afterDelete = try await s["save_note"]!.execute(["text": "fits again"], context: alice)
        #expect(!afterDelete.isError, "\(afterDelete.text)")
        #expect(afterDelete.payload?["id"]?.intValue.map { !ids.contains($0) } == true, "a new id, not a deleted one's")
    }
}
