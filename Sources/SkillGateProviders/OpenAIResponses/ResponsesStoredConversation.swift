import SkillGateCore

/// The conversation kept for a stored response (`previous_response_id`, `GET /v1/responses/{id}/input_items`), each of
/// its items with its id inside (decision 0138): the items of the conversation it continued as they were stored (with
/// the ids they were listed with), then its request's input items as the client sent them, then its answer's items as
/// the Response object the client was given shows them. Items are copied from one response of a chain to the next
/// unchanged, so an item keeps its id in every later response's list.
///
/// Read back with `OpenAIResponsesFormat.conversation(fromItems:)`, the decoder of a client's input: the ids are
/// ignored there, and the answer's items are the output items a client may send back itself.
public enum ResponsesStoredConversation {
    /// The stored conversation of response `responseId` and where its input ends (`StoredResponse.inputEnd`): `history`
    /// (the JSON text of the continued response's stored items, or empty), then `input` (the request's own items, each
    /// with the client's `id` or `ResponsesItemIds.input`), then the items of `object`'s `output` (the Response object's
    /// JSON text). A function call of `answer` that carries a provider's signature gets it back in its stored item
    /// (`skillgate_signature`; the object has no field for it). Should the object's output be unreadable (the gateway
    /// wrote it, so it is not), `answer` is written as items without ids instead, to be listed with positional ones.
    public static func write(history: [UInt8], input: [JSONObject], answer: Message, object: [UInt8], responseId: String)
        -> (conversation: [UInt8], inputEnd: Int) {
        var items = ResponsesItemsWriter(capacity: history.count + object.count + 2048)
        items.append(itemsOf: history)
        for (index, item) in input.enumerated() {
            let id = ResponsesItemIds.kept(item["id"]?.stringValue)
                ?? ResponsesItemIds.input(type: ResponsesItemIds.type(of: item), responseId: responseId, index: index)
            items.append(item: item, id: id)
        }
        let inputEnd = items.byteCount
        if let output = outputItems(of: object) {
            let signatures = Dictionary(answer.toolCalls.compactMap { call in call.signature.map { (call.id, $0) } },
                                        uniquingKeysWith: { first, _ in first })
            for range in output {
                if !signatures.isEmpty, let signed = withSignature(object[range], signatures) {
                    items.append(item: signed, id: signed["id"]?.stringValue ?? "")
                } else {
                    items.append(itemBytes: object[range])
                }
            }
        } else {
            items.append(answer)
        }
        return (items.finish(), inputEnd)
    }

    /// The byte ranges of the items of the Response object's `output` array; nil when `object` is not an object with one.
    static func outputItems(of object: [UInt8]) -> [Range<Int>]? {
        try? object.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) -> [Range<Int>]? in
            try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) -> [Range<Int>]? in
                var ranges: [Range<Int>]?
                _ = try c.readObject { (c, key) throws(JSONSyntaxError) in
                    guard key == "output" else { return }
                    var found: [Range<Int>] = []
                    var allObjects = true
                    let isArray = try c.readArray { (c) throws(JSONSyntaxError) in
                        guard let item = try c.readObjectBytes() else { allObjects = false; return }
                        let start = item.baseAddress! - buffer.baseAddress!
                        found.append(start..<start + item.count)
                    }
                    if isArray && allObjects { ranges = found }
                }
                return ranges
            }
        }
    }

    /// The function call item `bytes` with the signature its call carries, when it is one that has a signature.
    private static func withSignature(_ bytes: ArraySlice<UInt8>, _ signatures: [String: String]) -> JSONObject? {
        guard var item = (try? JSONValue.parse(Array(bytes)))?.objectValue, item["type"]?.stringValue == "function_call",
              let callId = item["call_id"]?.stringValue, let signature = signatures[callId] else { return nil }
        item.append(ResponsesInputItems.signatureKey, .string(signature))
        return item
    }
}
