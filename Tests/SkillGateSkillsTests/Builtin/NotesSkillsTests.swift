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
