import SkillGateCore

/// Output items of a `response` (`message`, `function_call`, `reasoning`) and their ids, written as compact JSON bytes
/// (decision 0068).
///
/// Item ids are made from the response id (`resp_X` → `msg_X_0`, `fc_X_1`, `rs_X_2`: the number is
/// the item's output index), so they are unique without any state. A function call keeps the
/// model's call id in `call_id`. A stored response keeps these items with these ids (decision 0138), so its later
/// responses list them with the same ones.
enum ResponsesOutputItems {
    /// The id of the output item at `index` of the response `responseId`, with `prefix` (`msg`, `fc`, `rs`).
    static func itemId(_ prefix: String, responseId: String, index: Int) -> String {
        let base = responseId.hasPrefix(OpenAIResponsesFormat.responseIdPrefix)
            ? responseId.dropFirst(OpenAIResponsesFormat.responseIdPrefix.count) : Substring(responseId)
        return prefix + "_" + base + "_" + String(index)
    }

    /// The answer's content as output items, each as its JSON: consecutive text blocks form one message; each
    /// thinking block is a reasoning item, each tool call a function_call item.
    static func items(_ content: [ContentBlock], refusal: Bool, responseId: String) -> [[UInt8]] {
        var items: [[UInt8]] = []
        var text: String?
        func append(_ write: (inout [UInt8]) -> Void) {
            var item: [UInt8] = []
            write(&item)
            items.append(item)
        }
        func flushText() {
            guard let t = text else { return }
            let id = itemId("msg", responseId: responseId, index: items.count)
            append { writeMessage(id: id, text: t, refusal: refusal, status: "completed", to: &$0) }
            text = nil
        }
        for block in content {
            switch block {
            case .text(let t):
                text = (text ?? "") + t
            case .thinking(let thinking):
                flushText()
                let id = itemId("rs", responseId: responseId, index: items.count)
                append { writeReasoning(id: id, thinking: thinking, to: &$0) }
            case .toolCall(let call):
                flushText()
                let id = itemId("fc", responseId: responseId, index: items.count)
                append { writeFunctionCall(id: id, call: call, status: "completed", to: &$0) }
            case .image, .toolResult:
                break
            }
        }
        flushText()
        return items
    }

    /// An assistant `message` item with one `output_text` (or `refusal`) part, or none when `text` is nil.
    static func writeMessage(id: String, text: String?, refusal: Bool, status: StaticString, to out: inout [UInt8]) {
        out += #"{"id":"#
        JSONValue.writeString(id, to: &out)
        out += #","type":"message","status":""#
        out += status
        out += #"","role":"assistant","content":["#
        if let text { writePart(text, refusal: refusal, to: &out) }
        out += "]}"
    }

    /// An `output_text` content part (or a `refusal` part).
    static func writePart(_ text: String, refusal: Bool, to out: inout [UInt8]) {
        if refusal {
            out += #"{"type":"refusal","refusal":"#
            JSONValue.writeString(text, to: &out)
            out.append(UInt8(ascii: "}"))
        } else {
            out += #"{"type":"output_text","text":"#
            JSONValue.writeString(text, to: &out)
            out += #","annotations":[],"logprobs":[]}"#
        }
    }

    /// A `function_call` item.
    static func writeFunctionCall(id: String, call: ToolCall, status: StaticString, to out: inout [UInt8]) {
        out += #"{"id":"#
        JSONValue.writeString(id, to: &out)
        out += #","type":"function_call","status":""#
        out += status
        out += #"","arguments":"#
        JSONValue.writeString(call.arguments, to: &out)
        out += #","call_id":"#
        JSONValue.writeString(call.id, to: &out)
        out += #","name":"#
        JSONValue.writeString(call.name, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A `reasoning` item: the visible reasoning as its summary; the signature (or redacted data)
    /// as `encrypted_content`, which a client sends back untouched.
    static func writeReasoning(id: String, thinking: Thinking, to out: inout [UInt8]) {
        out += #"{"id":"#
        JSONValue.writeString(id, to: &out)
        out += #","type":"reasoning","summary":"#
        if thinking.text.isEmpty {
            out += "[]"
        } else {
            out += #"[{"type":"summary_text","text":"#
            JSONValue.writeString(thinking.text, to: &out)
            out += "}]"
        }
        if let data = thinking.redactedData {
            out += #","encrypted_content":"#
            JSONValue.writeString(ResponsesInputItems.redactedPrefix + data, to: &out)
        } else if let signature = thinking.signature {
            out += #","encrypted_content":"#
            JSONValue.writeString(signature, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
