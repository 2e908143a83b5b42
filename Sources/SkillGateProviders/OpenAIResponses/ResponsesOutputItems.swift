import SkillGateCore

/// Output items of a `response` (`message`, `function_call`, `reasoning`) and their ids.
///
/// Item ids are made from the response id (`resp_X` → `msg_X_0`, `fc_X_1`, `rs_X_2`: the number is
/// the item's output index), so they are unique without any state. A function call keeps the
/// model's call id in `call_id`.
enum ResponsesOutputItems {
    /// The id of the output item at `index` of the response `responseId`, with `prefix` (`msg`, `fc`, `rs`).
    static func itemId(_ prefix: String, responseId: String, index: Int) -> String {
        let base = responseId.hasPrefix(OpenAIResponsesFormat.responseIdPrefix)
            ? responseId.dropFirst(OpenAIResponsesFormat.responseIdPrefix.count) : Substring(responseId)
        return prefix + "_" + base + "_" + String(index)
    }

    /// The answer's content as output items: consecutive text blocks form one message; each
    /// thinking block is a reasoning item, each tool call a function_call item.
    static func items(_ content: [ContentBlock], refusal: Bool, responseId: String) -> [JSONValue] {
        var items: [JSONValue] = []
        var text: String?
        func flushText() {
            guard let t = text else { return }
            items.append(message(id: itemId("msg", responseId: responseId, index: items.count), text: t, refusal: refusal, status: "completed"))
            text = nil
        }
        for block in content {
            switch block {
            case .text(let t):
                text = (text ?? "") + t
            case .thinking(let thinking):
                flushText()
                items.append(reasoning(id: itemId("rs", responseId: responseId, index: items.count), thinking: thinking))
            case .toolCall(let call):
                flushText()
                items.append(functionCall(id: itemId("fc", responseId: responseId, index: items.count), call: call, status: "completed"))
            case .image, .toolResult:
                break
            }
        }
        flushText()
        return items
    }

    /// An assistant `message` item with one `output_text` (or `refusal`) part.
    static func message(id: String, text: String?, refusal: Bool, status: String) -> JSONValue {
        var item: JSONObject = ["id": .string(id), "type": "message", "status": .string(status), "role": "assistant"]
        item.append("content", text.map { [part($0, refusal: refusal)] } ?? [])
        return .object(item)
    }

    /// An `output_text` content part (or a `refusal` part).
    static func part(_ text: String, refusal: Bool) -> JSONValue {
        refusal ? ["type": "refusal", "refusal": .string(text)]
            : ["type": "output_text", "text": .string(text), "annotations": [], "logprobs": []]
    }

    /// A `function_call` item.
    static func functionCall(id: String, call: ToolCall, status: String) -> JSONValue {
        ["id": .string(id), "type": "function_call", "status": .string(status), "arguments": .string(call.arguments),
         "call_id": .string(call.id), "name": .string(call.name)]
    }

    /// A `reasoning` item: the visible reasoning as its summary; the signature (or redacted data)
    /// as `encrypted_content`, which a client sends back untouched.
    static func reasoning(id: String, thinking: Thinking) -> JSONValue {
        var item: JSONObject = ["id": .string(id), "type": "reasoning"]
        item.append("summary", thinking.text.isEmpty ? [] : [["type": "summary_text", "text": .string(thinking.text)]])
        if let data = thinking.redactedData {
            item.append("encrypted_content", .string(ResponsesInputItems.redactedPrefix + data))
        } else if let signature = thinking.signature {
            item.append("encrypted_content", .string(signature))
        }
        return .object(item)
    }
}
