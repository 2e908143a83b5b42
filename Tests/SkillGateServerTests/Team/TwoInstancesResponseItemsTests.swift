import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// With `state.postgres_url`, a chain of responses continued on either instance keeps each item's id (decision 0138):
/// stored in PostgreSQL with the items, the ids are the same whichever instance lists them.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.adminURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct TwoInstancesResponseItemsTests {
    static func create(_ h: TeamHarness, _ input: String, after previous: String?) async throws -> JSONValue {
        let chained = previous.map { #","previous_response_id":"\#($0)""# } ?? ""
        let r = try await h.post("/v1/responses", #"{"model":"light","input":\#(input)\#(chained)}"#)
        return try JSONValue.parse(r.body)
    }

    static func ids(_ h: TeamHarness, _ id: String) async throws -> [String] {
        let r = try await h.get("/v1/responses/\(id)/input_items?order=asc")
        return (try JSONValue.parse(r.body)["data"]?.arrayValue ?? []).map { $0["id"]?.stringValue ?? "" }
    }

    /// A on the first instance, B continuing it on the second, C continuing B on the first: A's and B's items are listed
    /// with the same ids from both instances, the answers' with their Response objects' ids, the client's own id kept.
    @Test func aChainAcrossInstancesListsTheSameIds() async throws {
        let db = try await offThePool { try PostgresTestDatabase() }
        defer { Thread.detachNewThread { db.drop() } }
        let shared = #","state":{"postgres_url":"\#(db.url)"}"#
        let one = try TeamHarness(extraConfig: shared, start: nil)
        let two = try TeamHarness(extraConfig: shared, start: nil, existingToken: one.token)
        let a = try await Self.create(one, #"[{"id":"msg_mine \"1\" ü","role":"user","content":"Hi"}]"#, after: nil)
        let aId = try #require(a["id"]?.stringValue, "\(a)")
        try await offThePool { one.server.services.responses.flush() }
        let b = try await Self.create(two, #""More?""#, after: aId)
        let bId = try #require(b["id"]?.stringValue, "\(b)")
        try await offThePool { two.server.services.responses.flush() }
        let c = try await Self.create(one, #""Last.""#, after: bId)
        let cId = try #require(c["id"]?.stringValue, "\(c)")
        try await offThePool { one.server.services.responses.flush() }
        let lists = [try await Self.ids(one, aId), try await Self.ids(two, aId), try await Self.ids(one, bId), try await Self.ids(two, bId),
                     try await Self.ids(one, cId), try await Self.ids(two, cId)]
        await one.stop()
        await two.stop()

        let outputIds = { (r: JSONValue) in (r["output"]?.arrayValue ?? []).map { $0["id"]?.stringValue ?? "" } }
        let bare = { (id: String) in String(id.dropFirst("resp_".count)) }
        #expect(lists[0] == ["msg_mine \"1\" ü"] && lists[1] == lists[0], "\(lists)")
        #expect(!outputIds(a).isEmpty && lists[2] == lists[0] + outputIds(a) + ["msg_\(bare(bId))_in0"] && lists[3] == lists[2], "\(lists)")
        #expect(!outputIds(b).isEmpty && lists[4] == lists[2] + outputIds(b) + ["msg_\(bare(cId))_in0"] && lists[5] == lists[4], "\(lists)")
    }
}
