import SkillGateCore
import SkillGateHTTP

/// Wire-neutral stream events → the Responses API's event stream, as the official SDKs read it.
///
/// `response.created` and `response.in_progress` open the stream; then per output item
/// `response.output_item.added`, its content (`response.content_part.added`,
/// `response.output_text.delta` ... `.done`, `response.content_part.done` for a message;
/// `response.function_call_arguments.delta` ... `.done` for a function call;
/// `response.reasoning_summary_part.added`, `response.reasoning_summary_text.delta` ... for
/// reasoning) and `response.output_item.done`; `finish()` closes what is open and ends with
/// `response.completed` (or `response.incomplete` when the token limit or a content filter stopped
/// the answer), whose `response` holds every output item and the usage. Every event carries its
/// `sequence_number` (0, 1, 2, ...). Text deltas are written straight to bytes (no JSON tree), as
/// they are most of a stream.
public struct ResponsesStreamEncoder: Sendable {
    private enum Open: Sendable {
        case message(index: Int, id: String, text: String)
        case reasoning(index: Int, id: String, text: String, signature: String?)
    }

    private struct Call: Sendable {
        var index: Int
        var id: String
        var call: ToolCall
    }

    public let object: ResponsesObject
    private let onComplete: (@Sendable (ChatResponse) -> Void)?
    private var sequence = 0
    private var started = false
    private var open: Open?
    private var calls: [Int: Call] = [:]
    private var output: [JSONValue?] = []
    private var finishReason: FinishReason = .stop
    private var usage = Usage()
    private var accumulator: ChatResponseAccumulator?

    /// `onComplete` receives the whole answer just before `response.completed` is written (the
    /// gateway stores it there, so a client that chains on the id at once finds it).
    public init(object: ResponsesObject, onComplete: (@Sendable (ChatResponse) -> Void)? = nil) {
        self.object = object
        self.onComplete = onComplete
        accumulator = onComplete == nil ? nil : ChatResponseAccumulator()
    }

    /// The SSE bytes for one event (possibly none).
    public mutating func encode(_ event: ChatStreamEvent) -> [UInt8] {
        var out: [UInt8] = []
        startIfNeeded(&out)
        accumulator?.apply(event)
        switch event {
        case .start:
            break
        case .textDelta(let text):
            guard !text.isEmpty else { break }
            if case .message? = open {} else { openMessage(&out) }
            guard case .message(let index, let id, var all)? = open else { break }
            open = nil  // `all` is the text's only owner again: appending does not copy it
            all += text
            open = .message(index: index, id: id, text: all)
            textDelta(text, id: id, index: index, &out)
        case .thinkingDelta(let text):
            guard !text.isEmpty else { break }
            if case .reasoning(_, _, _, nil)? = open {} else { openReasoning(&out) }
            guard case .reasoning(let index, let id, var all, _)? = open else { break }
            open = nil
            all += text
            open = .reasoning(index: index, id: id, text: all, signature: nil)
            emit("response.reasoning_summary_text.delta", ["item_id": .string(id), "output_index": .int(index), "summary_index": 0,
                                                           "delta": .string(text)], &out)
        case .thinkingSignature(let signature):
            if case .reasoning(let index, let id, let text, _)? = open {
                open = .reasoning(index: index, id: id, text: text, signature: signature)
            } else {
                openReasoning(&out)
                if case .reasoning(let index, let id, _, _)? = open { open = .reasoning(index: index, id: id, text: "", signature: signature) }
            }
        case .redactedThinking(let data):
            closeOpen(&out)
            let index = output.count
            let item = ResponsesOutputItems.reasoning(id: ResponsesOutputItems.itemId("rs", responseId: object.id, index: index),
                                                      thinking: Thinking(text: "", redactedData: data))
            output.append(item)
            emit("response.output_item.added", ["output_index": .int(index), "item": item], &out)
            emit("response.output_item.done", ["output_index": .int(index), "item": item], &out)
        case .toolCallStart(let ordinal, let callId, let name):
            closeOpen(&out)
            let index = output.count
            let id = ResponsesOutputItems.itemId("fc", responseId: object.id, index: index)
            output.append(nil)
            let call = ToolCall(id: callId, name: name, arguments: "")
            calls[ordinal] = Call(index: index, id: id, call: call)
            emit("response.output_item.added", ["output_index": .int(index),
                                                "item": ResponsesOutputItems.functionCall(id: id, call: call, status: "in_progress")], &out)
        case .toolCallArgumentsDelta(let ordinal, let fragment):
            guard !fragment.isEmpty, calls[ordinal] != nil else { break }
            calls[ordinal]!.call.arguments += fragment  // in place
            let call = calls[ordinal]!
            emit("response.function_call_arguments.delta", ["item_id": .string(call.id), "output_index": .int(call.index),
                                                            "delta": .string(fragment)], &out)
        case .toolCallSignature:
            break  // kept by the accumulator for the stored conversation; clients have no field for it
        case .toolCallEnd(let ordinal):
            closeCall(ordinal, &out)
        case .finish(let reason):
            finishReason = reason
        case .usage(let u):
            usage = u
        }
        return out
    }

    /// Closes every open item and writes `response.completed` (or `response.incomplete`).
    public mutating func finish() -> [UInt8] {
        var out: [UInt8] = []
        startIfNeeded(&out)
        closeOpen(&out)
        for ordinal in calls.keys.sorted() { closeCall(ordinal, &out) }
        if let onComplete, let accumulator {
            var response = accumulator.response
            response.finishReason = finishReason
            response.usage = usage
            onComplete(response)
        }
        let (status, incomplete) = ResponsesObject.status(for: finishReason)
        let items = output.compactMap { $0 }, total = usage
        emitResponse(status == .incomplete ? "response.incomplete" : "response.completed", &out) { object, bytes in
            object.write(status: status, output: items, usage: total, incompleteReason: incomplete, to: &bytes)
        }
        return out
    }

    /// A failure after the stream started: an `error` event, then `response.failed` with the
    /// items completed so far.
    public func failure(_ error: GatewayError) -> [UInt8] {
        var copy = self
        var out: [UInt8] = []
        copy.startIfNeeded(&out)
        var fields: JSONObject = ["code": .string(error.responsesErrorCode), "message": .string(error.clientMessage)]
        fields.append("param", error.param.map(JSONValue.string) ?? .null)
        copy.emit("error", fields, &out)
        let done = copy.output.compactMap { $0 }
        copy.emitResponse("response.failed", &out) { object, bytes in
            object.write(status: .failed, output: done, usage: nil, error: error, to: &bytes)
        }
        return out
    }

    // MARK: Items

    private mutating func startIfNeeded(_ out: inout [UInt8]) {
        guard !started else { return }
        started = true
        let snapshot = object.bytes(status: .inProgress, output: [], usage: nil)
        emitResponse("response.created", &out) { _, bytes in bytes += snapshot }
        emitResponse("response.in_progress", &out) { _, bytes in bytes += snapshot }
    }

    private mutating func openMessage(_ out: inout [UInt8]) {
        closeOpen(&out)
        let index = output.count
        let id = ResponsesOutputItems.itemId("msg", responseId: object.id, index: index)
        output.append(nil)
        emit("response.output_item.added", ["output_index": .int(index),
                                            "item": ResponsesOutputItems.message(id: id, text: nil, refusal: false, status: "in_progress")], &out)
        emit("response.content_part.added", ["item_id": .string(id), "output_index": .int(index), "content_index": 0,
                                             "part": ResponsesOutputItems.part("", refusal: false)], &out)
        open = .message(index: index, id: id, text: "")
    }

    private mutating func openReasoning(_ out: inout [UInt8]) {
        closeOpen(&out)
        let index = output.count
        let id = ResponsesOutputItems.itemId("rs", responseId: object.id, index: index)
        output.append(nil)
        emit("response.output_item.added", ["output_index": .int(index), "item": ["id": .string(id), "type": "reasoning", "summary": []]], &out)
        emit("response.reasoning_summary_part.added", ["item_id": .string(id), "output_index": .int(index), "summary_index": 0,
                                                       "part": ["type": "summary_text", "text": ""]], &out)
        open = .reasoning(index: index, id: id, text: "", signature: nil)
    }

    /// Closes the open message or reasoning item.
    private mutating func closeOpen(_ out: inout [UInt8]) {
        switch open {
        case .message(let index, let id, let text)?:
            let part = ResponsesOutputItems.part(text, refusal: false)
            emit("response.output_text.done", ["item_id": .string(id), "output_index": .int(index), "content_index": 0,
                                               "text": .string(text), "logprobs": []], &out)
            emit("response.content_part.done", ["item_id": .string(id), "output_index": .int(index), "content_index": 0, "part": part], &out)
            let item = ResponsesOutputItems.message(id: id, text: text, refusal: false, status: "completed")
            output[index] = item
            emit("response.output_item.done", ["output_index": .int(index), "item": item], &out)
        case .reasoning(let index, let id, let text, let signature)?:
            let part: JSONValue = ["type": "summary_text", "text": .string(text)]
            emit("response.reasoning_summary_text.done", ["item_id": .string(id), "output_index": .int(index), "summary_index": 0,
                                                          "text": .string(text)], &out)
            emit("response.reasoning_summary_part.done", ["item_id": .string(id), "output_index": .int(index), "summary_index": 0,
                                                          "part": part], &out)
            let item = ResponsesOutputItems.reasoning(id: id, thinking: Thinking(text: text, signature: signature))
            output[index] = item
            emit("response.output_item.done", ["output_index": .int(index), "item": item], &out)
        case nil:
            break
        }
        open = nil
    }

    private mutating func closeCall(_ ordinal: Int, _ out: inout [UInt8]) {
        guard let call = calls.removeValue(forKey: ordinal) else { return }
        emit("response.function_call_arguments.done", ["item_id": .string(call.id), "output_index": .int(call.index),
                                                       "name": .string(call.call.name), "arguments": .string(call.call.arguments)], &out)
        let item = ResponsesOutputItems.functionCall(id: call.id, call: call.call, status: "completed")
        output[call.index] = item
        emit("response.output_item.done", ["output_index": .int(call.index), "item": item], &out)
    }

    // MARK: Bytes

    /// `event: <type>` and `data: {"type":<type>,"sequence_number":n,<fields>}`.
    private mutating func emit(_ type: String, _ fields: JSONObject, _ out: inout [UInt8]) {
        var members: [JSONObject.Member] = [.init(key: "type", value: .string(type)), .init(key: "sequence_number", value: .int(sequence))]
        members += fields.members
        sequence += 1
        out += SSEEncoder.encodeJSON(.object(JSONObject(members)), event: type)
    }

    /// `event: <type>` and `data: {"type":<type>,"sequence_number":n,"response":<written by body>}`.
    private mutating func emitResponse(_ type: String, _ out: inout [UInt8], body: (ResponsesObject, inout [UInt8]) -> Void) {
        out += "event: "
        out += type.utf8
        out += "\ndata: {\"type\":\"".utf8
        out += type.utf8
        out += "\",\"sequence_number\":".utf8
        out += String(sequence).utf8
        sequence += 1
        out += ",\"response\":".utf8
        body(object, &out)
        out += "}\n\n".utf8
    }

    private static let deltaHead: [UInt8] = Array("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"sequence_number\":".utf8)

    /// `response.output_text.delta`, written without a JSON tree.
    private mutating func textDelta(_ text: String, id: String, index: Int, _ out: inout [UInt8]) {
        out += Self.deltaHead
        out += String(sequence).utf8
        sequence += 1
        out += #","item_id":"#
        JSONValue.writeString(id, to: &out)
        out += #","output_index":"#
        out += String(index).utf8
        out += #","content_index":0,"delta":"#
        JSONValue.writeString(text, to: &out)
        out += #","logprobs":[]}"#
        out += [0x0A, 0x0A]
    }
}
