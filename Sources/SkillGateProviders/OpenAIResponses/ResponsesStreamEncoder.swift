import SkillGateCore
import SkillGateHTTP

/// Wire-neutral stream events → the Responses API's event stream, as the official SDKs read it.
///
/// `response.created` and `response.in_progress` open the stream; then per output item
/// `response.output_item.added`, its content (`response.content_part.added`,
/// `response.output_text.delta` ... `.done`, `response.content_part.done` for a message; a `refusal` part and
/// `response.refusal.delta` ... `.done` instead for the model's refusal text, in a message of its own (decision 0114);
/// `response.function_call_arguments.delta` ... `.done` for a function call;
/// `response.reasoning_summary_part.added`, `response.reasoning_summary_text.delta` ... for
/// reasoning) and `response.output_item.done`; `finish()` closes what is open and ends with
/// `response.completed` (or `response.incomplete` when the token limit or a content filter stopped
/// the answer), whose `response` holds every output item and the usage. Every event carries its
/// `sequence_number` (0, 1, 2, ...). Every event is written straight to bytes, without a JSON tree (decision 0068).
public struct ResponsesStreamEncoder: Sendable {
    private enum Open: Sendable {
        /// `refusal`: the message's one part is a `refusal` part, not `output_text`.
        case message(index: Int, id: String, text: String, refusal: Bool)
        case reasoning(index: Int, id: String, text: String, signature: String?)
    }

    private struct Call: Sendable {
        var index: Int
        var id: String
        var call: ToolCall
    }

    public let object: ResponsesObject
    private let onComplete: (@Sendable (ChatResponse, [UInt8]) -> Void)?
    private var sequence = 0
    private var started = false
    private var open: Open?
    private var calls: [Int: Call] = [:]
    /// Each output item's JSON once it is done; nil while it is open.
    private var output: [[UInt8]?] = []
    private var finishReason: FinishReason = .stop
    private var usage = Usage()
    private var accumulator: ChatResponseAccumulator?

    /// `onComplete` receives the whole answer and the JSON bytes of the Response object that `response.completed`
    /// (or `response.incomplete`) carries, just before that event is written (the gateway stores both there, so a
    /// client that chains on the id, or retrieves it, at once finds it).
    public init(object: ResponsesObject, onComplete: (@Sendable (ChatResponse, [UInt8]) -> Void)? = nil) {
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
            if case .message(_, _, _, false)? = open {} else { openMessage(refusal: false, &out) }
            guard case .message(let index, let id, var all, _)? = open else { break }
            open = nil  // `all` is the text's only owner again: appending does not copy it
            all += text
            open = .message(index: index, id: id, text: all, refusal: false)
            head("response.output_text.delta", &out)
            itemFields(id, index, #","content_index":0,"delta":"#, &out)
            JSONValue.writeString(text, to: &out)
            end(#","logprobs":[]"#, &out)
        case .refusalDelta(let text):
            guard !text.isEmpty else { break }
            if case .message(_, _, _, true)? = open {} else { openMessage(refusal: true, &out) }
            guard case .message(let index, let id, var all, _)? = open else { break }
            open = nil
            all += text
            open = .message(index: index, id: id, text: all, refusal: true)
            head("response.refusal.delta", &out)
            itemFields(id, index, #","content_index":0,"delta":"#, &out)
            JSONValue.writeString(text, to: &out)
            end("", &out)
        case .thinkingDelta(let text):
            guard !text.isEmpty else { break }
            if case .reasoning(_, _, _, nil)? = open {} else { openReasoning(&out) }
            guard case .reasoning(let index, let id, var all, _)? = open else { break }
            open = nil
            all += text
            open = .reasoning(index: index, id: id, text: all, signature: nil)
            head("response.reasoning_summary_text.delta", &out)
            itemFields(id, index, #","summary_index":0,"delta":"#, &out)
            JSONValue.writeString(text, to: &out)
            end("", &out)
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
            var item: [UInt8] = []
            ResponsesOutputItems.writeReasoning(id: ResponsesOutputItems.itemId("rs", responseId: object.id, index: index),
                                                thinking: Thinking(text: "", redactedData: data), to: &item)
            output.append(item)
            itemEvent("response.output_item.added", index, item, &out)
            itemEvent("response.output_item.done", index, item, &out)
        case .toolCallStart(let ordinal, let callId, let name):
            closeOpen(&out)
            let index = output.count
            let id = ResponsesOutputItems.itemId("fc", responseId: object.id, index: index)
            output.append(nil)
            let call = ToolCall(id: callId, name: name, arguments: "")
            calls[ordinal] = Call(index: index, id: id, call: call)
            head("response.output_item.added", &out)
            outputIndex(index, &out)
            ResponsesOutputItems.writeFunctionCall(id: id, call: call, status: "in_progress", to: &out)
            end("", &out)
        case .toolCallArgumentsDelta(let ordinal, let fragment):
            guard !fragment.isEmpty, calls[ordinal] != nil else { break }
            calls[ordinal]!.call.arguments += fragment  // in place
            let (id, index) = (calls[ordinal]!.id, calls[ordinal]!.index)
            head("response.function_call_arguments.delta", &out)
            itemFields(id, index, #","delta":"#, &out)
            JSONValue.writeString(fragment, to: &out)
            end("", &out)
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
        let (status, incomplete) = ResponsesObject.status(for: finishReason)
        let items = output.compactMap { $0 }, total = usage
        let event: StaticString = status == .incomplete ? "response.incomplete" : "response.completed"
        if let onComplete, let accumulator {
            var response = accumulator.response
            response.finishReason = finishReason
            response.usage = usage
            var completed: [UInt8] = []
            object.write(status: status, output: items, usage: total, incompleteReason: incomplete, to: &completed)
            onComplete(response, completed)
            emitResponse(event, &out) { _, bytes in bytes += completed }
        } else {
            emitResponse(event, &out) { object, bytes in
                object.write(status: status, output: items, usage: total, incompleteReason: incomplete, to: &bytes)
            }
        }
        return out
    }

    /// A failure after the stream started: an `error` event, then `response.failed` with the
    /// items completed so far.
    public func failure(_ error: GatewayError) -> [UInt8] {
        var copy = self
        var out: [UInt8] = []
        copy.startIfNeeded(&out)
        copy.head("error", &out)
        out += #","code":"#
        JSONValue.writeString(error.responsesErrorCode, to: &out)
        out += #","message":"#
        JSONValue.writeString(error.clientMessage, to: &out)
        out += #","param":"#
        if let param = error.param { JSONValue.writeString(param, to: &out) } else { out += "null" }
        copy.end("", &out)
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

    /// Opens a message item whose part is `output_text` or (`refusal`) a `refusal` part.
    private mutating func openMessage(refusal: Bool, _ out: inout [UInt8]) {
        closeOpen(&out)
        let index = output.count
        let id = ResponsesOutputItems.itemId("msg", responseId: object.id, index: index)
        output.append(nil)
        head("response.output_item.added", &out)
        outputIndex(index, &out)
        ResponsesOutputItems.writeMessage(id: id, text: nil, refusal: false, status: "in_progress", to: &out)
        end("", &out)
        head("response.content_part.added", &out)
        itemFields(id, index, #","content_index":0,"part":"#, &out)
        ResponsesOutputItems.writePart("", refusal: refusal, to: &out)
        end("", &out)
        open = .message(index: index, id: id, text: "", refusal: refusal)
    }

    private mutating func openReasoning(_ out: inout [UInt8]) {
        closeOpen(&out)
        let index = output.count
        let id = ResponsesOutputItems.itemId("rs", responseId: object.id, index: index)
        output.append(nil)
        head("response.output_item.added", &out)
        outputIndex(index, &out)
        out += #"{"id":"#
        JSONValue.writeString(id, to: &out)
        end(#","type":"reasoning","summary":[]}"#, &out)
        head("response.reasoning_summary_part.added", &out)
        itemFields(id, index, #","summary_index":0,"part":{"type":"summary_text","text":""}"#, &out)
        end("", &out)
        open = .reasoning(index: index, id: id, text: "", signature: nil)
    }

    /// Closes the open message or reasoning item.
    private mutating func closeOpen(_ out: inout [UInt8]) {
        switch open {
        case .message(let index, let id, let text, let refusal)?:
            if refusal {
                head("response.refusal.done", &out)
                itemFields(id, index, #","content_index":0,"refusal":"#, &out)
                JSONValue.writeString(text, to: &out)
                end("", &out)
            } else {
                head("response.output_text.done", &out)
                itemFields(id, index, #","content_index":0,"text":"#, &out)
                JSONValue.writeString(text, to: &out)
                end(#","logprobs":[]"#, &out)
            }
            head("response.content_part.done", &out)
            itemFields(id, index, #","content_index":0,"part":"#, &out)
            ResponsesOutputItems.writePart(text, refusal: refusal, to: &out)
            end("", &out)
            var item: [UInt8] = []
            ResponsesOutputItems.writeMessage(id: id, text: text, refusal: refusal, status: "completed", to: &item)
            output[index] = item
            itemEvent("response.output_item.done", index, item, &out)
        case .reasoning(let index, let id, let text, let signature)?:
            head("response.reasoning_summary_text.done", &out)
            itemFields(id, index, #","summary_index":0,"text":"#, &out)
            JSONValue.writeString(text, to: &out)
            end("", &out)
            head("response.reasoning_summary_part.done", &out)
            itemFields(id, index, #","summary_index":0,"part":{"type":"summary_text","text":"#, &out)
            JSONValue.writeString(text, to: &out)
            end("}", &out)
            var item: [UInt8] = []
            ResponsesOutputItems.writeReasoning(id: id, thinking: Thinking(text: text, signature: signature), to: &item)
            output[index] = item
            itemEvent("response.output_item.done", index, item, &out)
        case nil:
            break
        }
        open = nil
    }

    private mutating func closeCall(_ ordinal: Int, _ out: inout [UInt8]) {
        guard let call = calls.removeValue(forKey: ordinal) else { return }
        head("response.function_call_arguments.done", &out)
        itemFields(call.id, call.index, #","name":"#, &out)
        JSONValue.writeString(call.call.name, to: &out)
        out += #","arguments":"#
        JSONValue.writeString(call.call.arguments, to: &out)
        end("", &out)
        var item: [UInt8] = []
        ResponsesOutputItems.writeFunctionCall(id: call.id, call: call.call, status: "completed", to: &item)
        output[call.index] = item
        itemEvent("response.output_item.done", call.index, item, &out)
    }

    // MARK: Bytes

    /// `event: <type>` and `data: {"type":<type>,"sequence_number":n` (the event's fields and `end` follow).
    private mutating func head(_ type: StaticString, _ out: inout [UInt8]) {
        out += "event: "
        out += type
        out += "\ndata: {\"type\":\""
        out += type
        out += #"","sequence_number":"#
        out += String(sequence).utf8
        sequence += 1
    }

    /// `,"item_id":<id>,"output_index":<index>` and then `next` (the next field's start).
    private func itemFields(_ id: String, _ index: Int, _ next: StaticString, _ out: inout [UInt8]) {
        out += #","item_id":"#
        JSONValue.writeString(id, to: &out)
        out += #","output_index":"#
        out += String(index).utf8
        out += next
    }

    /// `,"output_index":<index>,"item":` (the item follows).
    private func outputIndex(_ index: Int, _ out: inout [UInt8]) {
        out += #","output_index":"#
        out += String(index).utf8
        out += #","item":"#
    }

    /// An `output_item` event whose item is already written.
    private mutating func itemEvent(_ type: StaticString, _ index: Int, _ item: [UInt8], _ out: inout [UInt8]) {
        head(type, &out)
        outputIndex(index, &out)
        out += item
        end("", &out)
    }

    /// `tail`, then the event's closing brace and blank line.
    private func end(_ tail: StaticString, _ out: inout [UInt8]) {
        out += tail
        out += "}\n\n"
    }

    /// `event: <type>` and `data: {"type":<type>,"sequence_number":n,"response":<written by body>}`.
    private mutating func emitResponse(_ type: StaticString, _ out: inout [UInt8], body: (ResponsesObject, inout [UInt8]) -> Void) {
        head(type, &out)
        out += ",\"response\":"
        body(object, &out)
        out += "}\n\n"
    }
}
