@testable import SkillGateProviders
import SkillGateCore

/// The prompt-tools parser (SkillGateProviders/PromptTools): the tag and fence readers on the raw
/// bytes, and the stream parser on the text. Invariant: the stream parser gives the same answer
/// (accumulated content, call count, or the same error) whole, split at two points chosen from the
/// input, and one character at a time (short inputs).
enum PromptToolsTarget: FuzzTarget {
    static let offered = ["get_weather", "search", "final_result", "f"]

    static func run(_ data: [UInt8]) {
        let slice = data[...]
        _ = PromptToolCallParser.parseTagged(slice)
        _ = PromptToolCallParser.parseFenced(slice)
        _ = PromptToolCallParser.firstJSONObject(in: slice)
        let text = String(decoding: data, as: UTF8.self)
        let scalars = Array(text.unicodeScalars)
        let whole = parse([text])
        let (a, b) = SSETarget.cuts(data)
        let (x, y) = (min(a, scalars.count), min(b, scalars.count))
        let pieces = [scalars[..<x], scalars[x..<y], scalars[y...]].map { String(String.UnicodeScalarView($0)) }
        let split = parse(pieces)
        invariant(split == whole, "split at scalars \(x),\(y): \(split) != \(whole)")
        if scalars.count <= 256 {
            let each = parse(scalars.map { String($0) })
            invariant(each == whole, "one scalar at a time: \(each) != \(whole)")
        }
    }

    enum Outcome: Equatable {
        case answer([ContentBlock], calls: Int)
        case failed(String)
    }

    static func parse(_ pieces: [String]) -> Outcome {
        var parser = PromptToolStreamParser(offeredTools: offered, idPrefix: "call_fuzz_", provider: "fuzz")
        var accumulator = ChatResponseAccumulator()
        do {
            for piece in pieces { try parser.feed(piece).forEach { accumulator.apply($0) } }
            try parser.finish().forEach { accumulator.apply($0) }
        } catch {
            return .failed(String(describing: error))
        }
        return .answer(accumulator.content, calls: parser.callCount)
    }

    static func seeds(_ fixtures: Fixtures) -> [[UInt8]] {
        var out: [String] = [
            "Sure.<tool_call>{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}</tool_call>",
            "<tool_call>\n```json\n{\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":1}\"}}\n```\n</tool_call> done",
            "Here:\n```json\n{\"name\":\"f\",\"parameters\":{}}\n```\n",
            "a < b and `code` ``` not json ```",
            "<tool_call>{\"name\":\"nope\"}</tool_call>",
            "<tool_call>not json</tool_call>",
        ]
        // Arguments recorded from real tool calls, wrapped as calls to an offered tool.
        for object in fixtures.allObjects().prefix(200) {
            guard let args = object["arguments"] ?? object["input"] ?? object["args"] else { continue }
            let arguments = args.stringValue ?? args.serialized()
            let call = JSONValue.object(["name": .string("search"), "arguments": .string(arguments)]).serialized()
            out.append("Let me look.\n<tool_call>\(call)</tool_call>\n")
            out.append("```json\n\(JSONValue.object(["name": "f", "arguments": args]).serialized())\n```")
        }
        return out.map { Array($0.utf8) }
    }
}
