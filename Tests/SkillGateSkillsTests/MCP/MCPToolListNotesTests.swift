import SkillGateCore
import Testing
@testable import SkillGateSkills

/// What `tools/list` notes for the log quotes of a server's cursor (decision 0113).
@Suite struct MCPToolListNotesTests {
    /// A server whose every page names a next page with a cursor of a megabyte.
    struct EndlessCursors: MCPTransport {
        func exchange(_ request: JSONRPCMessage, id: JSONRPCId, timeout: Duration) async throws(MCPError) -> JSONRPCMessage {
            .result(id: id, result: ["tools": [["name": "t", "inputSchema": ["type": "object"]]],
                                     "nextCursor": .string(String(repeating: "c", count: 1_000_000))])
        }
        func notify(_ message: JSONRPCMessage, timeout: Duration) async throws(MCPError) {}
        func initialized(protocolVersion: String) {}
        var isOpen: Bool { true }
        func close() async {}
    }

    /// The note about pages left unread quotes the cursor's start and its length, not the megabyte: it became a log
    /// line at every connection and refresh.
    @Test func theNoteQuotesAHugeCursorShort() async throws {
        let session = MCPClientSession(transport: EndlessCursors())
        let listing = try await session.listTools(maxTools: 100, maxPages: 3, timeout: .seconds(30))
        #expect(listing.tools.count == 3)
        let note = try #require(listing.notes.first { $0.contains("max_pages") })
        #expect(note.utf8.count < 400 && note.contains("1000000 bytes"), "\(note.prefix(300))")
    }
}
