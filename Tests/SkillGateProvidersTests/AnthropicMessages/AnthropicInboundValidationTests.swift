import Testing
import SkillGateCore
@testable import SkillGateProviders

/// `POST /v1/messages` bodies SkillGate must reject, with the field named.
@Suite struct AnthropicInboundValidationTests {
    static let user = #"{"role":"user","content":"hi"}"#

    @Test(arguments: [
        (#"{"model":"m","messages":[\#(user)]}"#, "max_tokens", "field required"),
        (#"{"model":"m","max_tokens":100}"#, "messages", "field required"),
        (#"{"max_tokens":100,"messages":[\#(user)]}"#, "model", "GET /v1/models lists them"),
        (#"{"model":"m","max_tokens":"100","messages":[\#(user)]}"#, "max_tokens", "expected an integer, got a string"),
        (#"{"model":"m","max_tokens":0,"messages":[\#(user)]}"#, "max_tokens", "at least 1"),
        (#"{"model":"m","max_tokens":10,"messages":{}}"#, "messages", "expected an array, got an object"),
        (#"{"model":"m","max_tokens":10,"messages":[]}"#, "messages", "at least one message"),
        (#"{"model":"m","max_tokens":10,"messages":[{"role":"bot","content":"x"}]}"#, "messages[0].role", "expected \"user\" or \"assistant\""),
        (#"{"model":"m","max_tokens":10,"messages":[{"role":"system","content":"x"}]}"#, "messages[0].role", "top-level `system`"),
        (#"{"model":"m","max_tokens":10,"messages":[\#(user),{"role":"assistant","content":[{"type":"video","url":"x"}]}]}"#,
         "messages[1].content[0].type", "expected one of text, tool_use, thinking, redacted_thinking"),
        (#"{"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"tool_use","id":"a","name":"n","input":{}}]}]}"#,
         "messages[0].content[0].type", "expected one of text, image, tool_result"),
        (#"{"model":"m","max_tokens":10,"messages":[{"role":"user","content":42}]}"#, "messages[0].content", "a string or an array"),
        (#"{"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"text"}]}]}"#, "messages[0].content[0].text", "field is missing"),
        (#"{"model":"m","max_tokens":10,"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"n","input":"{}"}]}]}"#,
         "messages[0].content[0].input", "expected an object, got a string"),
        (#"{"model":"m","max_tokens":10,"messages":[\#(user)],"system":5}"#, "system", "a string or an array of text blocks"),
        (#"{"model":"m","max_tokens":10,"messages":[\#(user)],"temperature":"hot"}"#, "temperature", "expected a number"),
        (#"{"model":"m","max_tokens":10,"messages":[\#(user)],"temperature":1e400}"#, "temperature", "got 1e400, which is beyond the range"),
        (#"{"model":"m","max_tokens":10,"messages":[\#(user)],"top_p":-2e308}"#, "top_p", "got -2e308, which is beyond the range"),
        (#"{"model":"m","max_tokens":10,"messages":[\#(user)],"top_k":"5"}"#, "top_k", "expected an integer, got a string"),
        (#"{"model":"m","max_tokens":10,"messages":[\#(user)],"top_k":-1}"#, "top_k", "at least 0"),
        (#"{"model":"m","max_tokens":10,"messages":[\#(user)],"top_k":2.5}"#, "top_k", "expected a whole number of at least 0 that fits in 64 bits, got 2.5"),
        (#"{"model":"m","max_tokens":1e300,"messages":[\#(user)]}"#, "max_tokens", "expected a whole number of at least 1 that fits in 64 bits, got 1e300"),
        (#"{"model":"m","max_tokens":10,"messages":[\#(user)],"tool_choice":{"type":"required"}}"#, "tool_choice.type", "auto, any, tool, none"),
        (#"{"model":"m","max_tokens":10,"messages":[\#(user)],"thinking":{"type":"enabled"}}"#, "thinking.budget_tokens", "expected an integer"),
        (#"{"model":"m","max_tokens":10,"messages":[\#(user)],"tools":[{"name":"t"}]}"#, "tools[0].input_schema", "JSON Schema object"),
        (#"{"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"file","file_id":"f"}}]}]}"#,
         "messages[0].content[0].source.type", "\"base64\" or \"url\""),
    ])
    func rejectsWithTheFieldNamed(body: String, param: String, says: String) throws {
        let e = try #require(AnthropicTestSupport.inboundError(body))
        #expect(e.kind == .invalidRequest)
        #expect(e.status == 400)
        #expect(e.param == param)
        #expect(e.message.contains(says), "\(e.message)")
        #expect(e.anthropicBody()["error"]?["type"] == "invalid_request_error")
    }

    @Test(arguments: ["", "not json", "[1,2]"])
    func rejectsBodiesThatAreNotObjects(_ body: String) throws {
        let e = try #require(AnthropicTestSupport.inboundError(body))
        #expect(e.status == 400)
    }

    @Test func acceptsSystemBlocksThinkingAndToolChoice() throws {
        let r = try AnthropicTestSupport.inbound("""
        {"model":"claude-x","max_tokens":2048,"system":[{"type":"text","text":"A"},{"type":"text","text":"B","cache_control":{"type":"ephemeral"}}],
         "messages":[{"role":"user","content":"hi"}],"thinking":{"type":"enabled","budget_tokens":1024},
         "tools":[{"name":"t","input_schema":{"type":"object"}}],"tool_choice":{"type":"any","disable_parallel_tool_use":true},
         "metadata":{"user_id":"u"},"stream":true,"top_k":5}
        """)
        var system = Message(role: .system, content: [.text("A"), .text("B")])
        system.cacheBreakpoints = [1: CacheControl()]  // kept for Anthropic-format providers (decision 0032)
        #expect(r.messages.first == system)
        #expect(r.thinking == ThinkingConfig(enabled: true, budgetTokens: 1024))
        #expect(r.toolChoice == .required)
        #expect(r.parallelToolCalls == false)
        #expect(r.user == "u")
        #expect(r.maxTokens == 2048)
        #expect(r.tools.map(\.name) == ["t"])
        #expect(r.topK == 5)
    }

    @Test func userTurnWithToolResultsSplitsIntoToolAndUserMessages() throws {
        let r = try AnthropicTestSupport.inbound("""
        {"model":"m","max_tokens":10,"messages":[{"role":"user","content":[
          {"type":"tool_result","tool_use_id":"a","content":"1"},
          {"type":"tool_result","tool_use_id":"b","content":[{"type":"text","text":"2"}],"is_error":true},
          {"type":"text","text":"go on"}]}]}
        """)
        #expect(r.messages.map(\.role) == [.tool, .user])
        #expect(r.messages[0].toolResults == [ToolResult(callId: "a", text: "1"), ToolResult(callId: "b", text: "2", isError: true)])
        #expect(r.messages[1].text == "go on")
    }

    @Test(arguments: [("", false), (#","stream":true"#, true), (#","stream":false"#, false)])
    func reportsTheStreamFlag(extra: String, stream: Bool) throws {
        let body = #"{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]"# + extra + "}"
        #expect(try AnthropicMessagesFormat.decodeInbound(Array(body.utf8)).stream == stream)
    }
}
