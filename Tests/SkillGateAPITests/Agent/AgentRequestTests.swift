import Foundation
import SkillGateAPI
import Testing

@Suite("AgentRequest")
struct AgentRequestTests {
    @Test func encodesTheAgentBody() throws {
        let tool = ChatTool(name: "open_map", description: "Opens a map", parameters: ["type": "object", "properties": [:]])
        let request = AgentRequest(asking: "Where is Bern?", scenario: "assistant", tools: [tool])
        let json = String(decoding: try CompactJSONEncoder().encode(request), as: UTF8.self)
        #expect(json == #"{"messages":[{"role":"user","content":"Where is Bern?"}],"scenario":"assistant","#
            + #""tools":[{"type":"function","function":{"name":"open_map","description":"Opens a map","parameters":{"properties":{},"type":"object"}}}]}"#)
        #expect(try JSONDecoder().decode(AgentRequest.self, from: Data(json.utf8)) == request)
    }

    @Test func aFollowUpCarriesTheToolCallAndItsResult() throws {
        let request = AgentRequest(messages: [
            .user("Show me Bern"),
            .assistant(nil, toolCalls: [ChatToolCall(id: "call_2", name: "open_map", arguments: #"{"q":"Bern"}"#)]),
            .tool(callId: "call_2", content: "shown"),
        ])
        let json = String(decoding: try CompactJSONEncoder().encode(request), as: UTF8.self)
        #expect(json.contains(#"{"role":"assistant","tool_calls":[{"id":"call_2","type":"function","function":{"name":"open_map","arguments":"{\"q\":\"Bern\"}"}}]}"#))
        #expect(json.contains(#"{"role":"tool","content":"shown","tool_call_id":"call_2"}"#))
    }
}
