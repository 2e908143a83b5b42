import Foundation
import Testing
import SkillGateTestSupport
import SkillGateCore
@testable import SkillGateProviders

/// `parseCompletion` reads a `chat.completion` with a cursor (`OpenAIChatCompletionBody`); it must answer
/// exactly as the tree parser it replaced (`OpenAIChatCompletionTreeReference`): the same response, or
/// the same error, for recorded answers, for every odd shape a compatible server may send, for duplicate
/// keys, for malformed bodies, and for generated combinations of all of them.
@Suite struct OpenAIChatCompletionBodyTests {
    static func outcome(_ parse: () throws -> ChatResponse) -> String {
        do { return "ok: \(try parse())" } catch { return "error: \(error)" }
    }

    static func check(_ text: String, _ comment: Comment? = nil) {
        let bytes = Array(text.utf8)
        let tree = outcome { try OpenAIChatCompletionTreeReference.parseCompletion(bytes, provider: "p") }
        let cursor = outcome { try OpenAIChatFormat.parseCompletion(bytes, provider: "p") }
        #expect(cursor == tree, comment ?? Comment(rawValue: text))
    }

    static let message = #""role":"assistant""#

    static let cases: [String] = [
        #"{"id":"c1","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}"#,
        #"{"id":"c","model":"m","choices":[{"message":{"reasoning_content":"think","content":"answer"},"finish_reason":"stop"}]}"#,
        #"{"choices":[{"message":{"reasoning":"only reasoning","content":null}}]}"#,
        #"{"choices":[{"message":{"reasoning_content":null,"reasoning":"hidden by the null","content":"x"}}]}"#,
        #"{"choices":[{"message":{"reasoning_content":7,"reasoning":"hidden by the number"}}]}"#,
        #"{"choices":[{"message":{"reasoning":"r","reasoning_content":"rc"}}]}"#,
        #"{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"image"},{"text":"b"},7]}}]}"#,
        #"{"choices":[{"message":{"content":{"text":"an object"}}}]}"#,
        #"{"choices":[{"message":{"content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}},{"function":{"name":"g","arguments":{"y":[1,2]}}},7,{"id":5,"function":"not an object"},{"id":"d","function":{"arguments":null}}]},"finish_reason":"tool_calls"}]}"#,
        #"{"choices":[{"message":{"function_call":{"name":"legacy","arguments":"{}"}},"finish_reason":"function_call"}]}"#,
        #"{"choices":[{"message":{"content":"x","function_call":"not an object"}}]}"#,
        #"{"choices":[{"message":{"content":null,"refusal":"I can't."},"finish_reason":"stop"}]}"#,
        #"{"choices":[{"message":{"content":"","refusal":""},"finish_reason":"length"}]}"#,
        #"{"choices":[{"index":1,"message":{"content":"second"}},{"index":0,"message":{"content":"first"}}]}"#,
        #"{"choices":[{"index":1,"message":{"content":"only one"}}]}"#,
        #"{"choices":[{"index":"0","message":{"content":"string index"}}]}"#,
        #"{"choices":[{"index":0.0,"message":{"content":"float index"}}]}"#,
        #"{"choices":[7,{"index":0,"message":{"content":"after a number"}}]}"#,
        #"{"choices":[]}"#,
        #"{"choices":{"0":{"message":{}}}}"#,
        #"{"choices":[{"finish_reason":"stop"}]}"#,
        #"{"choices":[{"message":"text"}]}"#,
        #"{"choices":[{"message":{}}]}"#,
        #"[{"choices":[]}]"#,
        #""just a string""#,
        #"{"error":{"message":"overloaded","type":"server_error","code":"overloaded"}}"#,
        #"{"error":"bad"}"#,
        #"{"error":null,"choices":[{"message":{"content":"fine"}}]}"#,
        #"{"id":"first","id":"second","model":"m1","model":"m2","choices":[{"message":{"content":"a"}}],"choices":[{"message":{"content":"b"}}]}"#,
        #"{"choices":[{"message":{"content":"a"},"message":{"content":"b"},"finish_reason":"stop","finish_reason":"length","index":0,"index":1}]}"#,
        #"{"choices":[{"message":{"content":"a","content":"b","tool_calls":[{"id":"x","id":"y","function":{"name":"n1","name":"n2","arguments":"1","arguments":"2"},"function":{"name":"n3"}}],"tool_calls":[]}}]}"#,
        #"{"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":5,"prompt_tokens":6,"completion_tokens":2.0,"prompt_tokens_details":{"cached_tokens":3,"cached_tokens":4},"prompt_tokens_details":{"cached_tokens":9},"completion_tokens_details":{"reasoning_tokens":1}},"usage":{"prompt_tokens":99}}"#,
        #"{"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":5,"prompt_cache_hit_tokens":2}}"#,
        #"{"choices":[{"message":{"content":"x"}}],"usage":"none"}"#,
        #"{"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":"5","completion_tokens":null,"prompt_tokens_details":null}}"#,
        #"{"choices":[{"message":{"content":"\u00e9\ud83d\ude00 \"q\" \\ \n"}}],"model":"\u6a21\u578b","id":"i\td"}"#,
        #"{"choices":[{"message":{"content":"x"},"finish_reason":null}]}"#,
        #"{"choices":[{"message":{"content":"x"},"finish_reason":7}]}"#,
        #"{"choices":[{"message":{"content":"x"},"finish_reason":"content_filter"}]}"#,
        #"{"choices":[{"message":{"content":"x"}}]"#,
        #"{"choices":[{"message":{"content":"x"}}]} trailing"#,
        #"{"choices":[{"message":{"content":"\x"}}]}"#,
        #"{"choices":[{"message":{"content":"x"}},]}"#,
        "",
        "   ",
        #"{"choices":[{"message":{"content":"x"}}], "deep":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
    ]

    @Test(arguments: cases)
    func oddShapesAnswerAsTheTreeDid(_ text: String) {
        Self.check(text)
    }

    @Test func recordedAnswersAnswerAsTheTreeDid() throws {
        let directory = Fixtures.root.appendingPathComponent("openai")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") && !$0.contains("request") }.sorted()
        #expect(files.count >= 5)
        for file in files {
            Self.check(String(decoding: try Fixtures.bytes("openai/\(file)"), as: UTF8.self), Comment(rawValue: file))
        }
    }

    /// Bodies put together from a random choice of each member's shapes (several forms of every member
    /// the reader looks at, duplicated or missing, in a random order), with a fixed seed.
    @Test func generatedBodiesAnswerAsTheTreeDid() {
        var random = SplitMix(seed: 0x5EED)
        let contents = [#""text""#, "null", "7", #"[{"text":"p"},{"x":1}]"#, #""""#, #""\u00e9\n""#]
        let reasonings = [#""reasoning_content":"r""#, #""reasoning":"s""#, #""reasoning_content":null"#, #""reasoning_content":1,"reasoning":"t""#, ""]
        let calls = [#""tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}}]"#, #""tool_calls":[{"function":{"arguments":{"k":true}}},3]"#,
                     #""tool_calls":null"#, #""function_call":{"name":"old"}"#, #""tool_calls":[]"#, ""]
        let finishes = [#""finish_reason":"stop""#, #""finish_reason":"tool_calls""#, #""finish_reason":null"#, #""finish_reason":"length""#, ""]
        let usages = [#""usage":{"prompt_tokens":1,"completion_tokens":2}"#, #""usage":{"prompt_tokens_details":{"cached_tokens":1},"prompt_cache_hit_tokens":4}"#,
                      #""usage":null"#, #""usage":[1]"#, ""]
        func pick(_ options: [String]) -> String { options[Int(random.next() % UInt64(options.count))] }
        func object(_ members: [String]) -> String {
            var kept = members.filter { !$0.isEmpty }
            if !kept.isEmpty, random.next() % 4 == 0 { kept.append(kept[Int(random.next() % UInt64(kept.count))]) }
            kept.shuffle(using: &random)
            return "{" + kept.joined(separator: ",") + "}"
        }
        for _ in 0..<400 {
            let message = object([#""role":"assistant""#, #""content":"# + pick(contents), pick(reasonings), pick(calls), random.next() % 5 == 0 ? #""refusal":"no""# : ""])
            let choice = object([random.next() % 3 == 0 ? #""index":1"# : #""index":0"#, random.next() % 8 == 0 ? #""message":"m""# : #""message":"# + message, pick(finishes)])
            let second = random.next() % 4 == 0 ? "," + object([#""index":0"#, #""message":{"content":"other"}"#]) : ""
            let body = object([#""id":"c""#, #""model":"m""#, #""choices":["# + choice + second + "]", pick(usages), random.next() % 20 == 0 ? #""error":{"message":"e"}"# : ""])
            Self.check(body)
        }
    }
}
