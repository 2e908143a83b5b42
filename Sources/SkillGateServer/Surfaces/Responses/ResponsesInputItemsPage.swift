import SkillGateCore
import SkillGateProviders

/// One page of `GET /v1/responses/{id}/input_items` (the SDKs' `responses.input_items.list`, decision 0127): the items
/// the model was given for a stored response, as the Responses API lists them, `{"object":"list","data":[...],
/// "first_id","last_id","has_more"}`.
///
/// The items are read from the stored conversation's input (`StoredResponse.inputItemsJSON`), written by
/// `ResponsesItemsWriter`, and shown in the public item shapes: each gets an `id` and a `status`, an assistant
/// message's text parts their `annotations`, and the gateway's own fields (`skillgate_signature`,
/// `skillgate_is_error`) are left out. Each item is listed with the id stored in it (decision 0138), the same in the list of
/// every response of a chain: an answer's items with the ids of its Response object's `output`, an input item with the
/// client's id or one the gateway gave it when it was stored. An item stored before ids were kept is listed with one made
/// from the listed response's id and its position (`ResponsesItemIds.positional`, decision 0127).
///
/// The array is walked without building its items (`JSONCursor`); only the page's items are parsed.
struct ResponsesInputItemsPage: Sendable {
    /// Items per page at most (the Responses API's bound).
    static let maxLimit = 100

    /// The query's choices.
    struct Query: Sendable, Equatable {
        /// Items on the page, 1 to `maxLimit`; 20 by default, as the Responses API.
        var limit = 20
        /// The conversation's order (oldest first) when true; newest first by default, as the Responses API.
        var ascending = false
        /// The id of the item the page starts after (the previous page's `last_id`), in the page's order.
        var after: String?

        /// The `include` values the Responses API defines. Every item is listed whole whichever are asked for (an
        /// image's `image_url` and a reasoning item's `encrypted_content` are always there), so they are only checked.
        static let includable: Set<String> = [
            "file_search_call.results", "web_search_call.results", "web_search_call.action.sources", "message.input_image.image_url",
            "computer_call_output.output.image_url", "code_interpreter_call.outputs", "reasoning.encrypted_content",
            "message.output_text.logprobs",
        ]

        init(limit: Int = 20, ascending: Bool = false, after: String? = nil) {
            self.limit = limit
            self.ascending = ascending
            self.after = after
        }

        /// Reads `limit`, `order`, `after` and `include` (also as `include[]`, each value checked) from a query string; a
        /// 400 naming the parameter for a bad value, or for `limit`, `order` or `after` given twice. Other parameters are
        /// ignored, as the Responses API's own (such as `before`, which it does not define) would be.
        init(_ query: String?) throws(GatewayError) {
            var seen: Set<String> = []
            for (name, value) in QueryString.pairs(query) {
                switch name {
                case "limit", "order", "after":
                    guard seen.insert(name).inserted else {
                        throw GatewayError.invalidRequest("query parameter \(name) is given more than once; give it once", param: name)
                    }
                    if name == "limit" {
                        guard let n = Int(value), (1...ResponsesInputItemsPage.maxLimit).contains(n) else {
                            throw GatewayError.invalidRequest("query parameter limit must be a whole number from 1 to \(ResponsesInputItemsPage.maxLimit), got \"\(value.prefix(40))\"", param: "limit")
                        }
                        limit = n
                    } else if name == "order" {
                        guard value == "asc" || value == "desc" else {
                            throw GatewayError.invalidRequest("query parameter order must be asc or desc, got \"\(value.prefix(40))\"", param: "order")
                        }
                        ascending = value == "asc"
                    } else {
                        after = value
                    }
                case "include", "include[]":
                    guard Self.includable.contains(value) else {
                        throw GatewayError.invalidRequest("query parameter include cannot be \"\(value.prefix(60))\"; it takes \(Self.includable.sorted().joined(separator: ", "))", param: "include")
                    }
                default:
                    continue
                }
            }
        }
    }

    /// The page of `itemsJSON` (the JSON text of the input items array) for response `responseId`: its JSON text. A 400
    /// naming `after` when no item of the list has that id; a 500 when the stored items are not an array of objects.
    static func page(of itemsJSON: [UInt8], responseId: String, _ query: Query) throws(GatewayError) -> [UInt8] {
        let items = try StoredItems(itemsJSON, responseId: responseId)
        let order: [Int] = query.ascending ? Array(items.ranges.indices) : items.ranges.indices.reversed()
        var start = 0
        if let after = query.after {
            guard let position = items.position(of: after, in: itemsJSON, responseId: responseId),
                  let at = order.firstIndex(of: position) else {
                throw GatewayError.invalidRequest("after '\(ResponseArchive.shown(after))' is not an item of response '\(ResponseArchive.shown(responseId))'s input; pass the last_id of the page before, with the same order", param: "after")
            }
            start = at + 1
        }
        let chosen = order[start..<min(order.count, start + query.limit)]
        var out: [UInt8] = []
        out.reserveCapacity(chosen.reduce(64) { $0 + items.ranges[$1].count + 96 })
        out += #"{"object":"list","data":["#.utf8
        var ids: [String] = []
        for index in chosen {
            if !ids.isEmpty { out.append(UInt8(ascii: ",")) }
            let id = try writeItem(itemsJSON[items.ranges[index]], keeping: items.keptIds[index], at: index, responseId: responseId, to: &out)
            ids.append(id)
        }
        out += #"],"first_id":"#.utf8
        if let first = ids.first { JSONValue.writeString(first, to: &out) } else { out += "null".utf8 }
        out += #","last_id":"#.utf8
        if let last = ids.last { JSONValue.writeString(last, to: &out) } else { out += "null".utf8 }
        out += #","has_more":"#.utf8
        out += (start + chosen.count < order.count ? "true" : "false").utf8
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The items of a stored input array: where each one's bytes are, and the id it keeps (decision 0138), found by
    /// walking the array without building its items. An item keeps no id when it has none (it was stored before ids were
    /// kept, `ResponsesItemIds.kept`) or when an item before it in the list keeps the same one (a client sent an item
    /// with an id twice): it is listed with `ResponsesItemIds.positional`, so no two items of a list share an id.
    struct StoredItems {
        var ranges: [Range<Int>] = []
        var keptIds: [String?] = []

        /// A 500 when `json` is not an array of objects (the gateway wrote it).
        init(_ json: [UInt8], responseId: String) throws(GatewayError) {
            var ranges: [Range<Int>] = [], ids: [String?] = []
            let read: Bool? = try? json.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) -> Bool in
                try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) -> Bool in
                    var allObjects = true
                    var seen: Set<String> = []
                    let isArray = try c.readArray { (c) throws(JSONSyntaxError) in
                        let start = c.offset
                        var id: String?
                        guard try c.readObject({ (c, key) throws(JSONSyntaxError) in
                            if key == "id" { id = try c.readString() }
                        }) else { allObjects = false; return }
                        ranges.append(start..<c.offset)
                        ids.append(ResponsesItemIds.kept(id).flatMap { seen.insert($0).inserted ? $0 : nil })
                    }
                    return isArray && allObjects
                }
            }
            guard read == true else {
                throw GatewayError.internalError("the stored input of response '\(ResponseArchive.shown(responseId))' is unreadable; send the whole conversation in `input` when you continue it")
            }
            self.ranges = ranges
            keptIds = ids
        }

        /// The position of the item listed with `id`: one that keeps it, else the item whose positional id it is (its
        /// position is the id's end, and only that item is parsed).
        func position(of id: String, in json: [UInt8], responseId: String) -> Int? {
            if let kept = keptIds.firstIndex(of: id) { return kept }
            guard let position = id.split(separator: "_").last.flatMap({ Int($0) }), keptIds.indices.contains(position),
                  keptIds[position] == nil,
                  let stored = (try? JSONValue.parse(Array(json[ranges[position]])))?.objectValue,
                  ResponsesItemIds.positional(type: ResponsesItemIds.type(of: stored), responseId: responseId, position: position) == id
            else { return nil }
            return position
        }
    }

    /// Writes the stored item `bytes` in its public shape (`publicItem`) with the id it keeps, else its positional one;
    /// returns the id.
    private static func writeItem(_ bytes: ArraySlice<UInt8>, keeping kept: String?, at index: Int, responseId: String,
                                  to out: inout [UInt8]) throws(GatewayError) -> String {
        guard let stored = (try? JSONValue.parse(Array(bytes)))?.objectValue else {
            throw GatewayError.internalError("the stored input of response '\(ResponseArchive.shown(responseId))' is unreadable; send the whole conversation in `input` when you continue it")
        }
        let id = kept ?? ResponsesItemIds.positional(type: ResponsesItemIds.type(of: stored), responseId: responseId, position: index)
        JSONValue.object(publicItem(stored, id: id)).write(to: &out)
        return id
    }

    /// A stored item as the Responses API lists it: `id` first, the stored members but the gateway's own (named
    /// `skillgate_…`), `status` `completed` on messages, function calls and their outputs, `annotations` on an
    /// assistant message's `output_text` parts, and `detail` on `input_image` parts. A message in the short form a client may send (a `role` and a string
    /// `content`, no `type`) is listed in the full one.
    static func publicItem(_ stored: JSONObject, id: String) -> JSONObject {
        var item = JSONObject()
        item.append("id", .string(id))
        let role = stored["role"]?.stringValue
        let type = stored["type"]?.stringValue ?? (role != nil ? "message" : nil)
        if stored["type"] == nil, let type { item.append("type", .string(type)) }
        for member in stored where member.key != "id" && !member.key.hasPrefix("skillgate_") {
            if type == "message", member.key == "content", let text = member.value.stringValue {
                item.append("content", [withAnnotations(["type": .string(role == "assistant" ? "output_text" : "input_text"), "text": .string(text)])])
            } else if type == "message", member.key == "content", let parts = member.value.arrayValue {
                item.append("content", .array(parts.map { withDetail(withAnnotations($0)) }))
            } else if type == "function_call_output", member.key == "output", let parts = member.value.arrayValue {
                item.append("output", .array(parts.map(withDetail)))
            } else {
                item.append(member.key, member.value)
            }
        }
        if type == "message" || type == "function_call" || type == "function_call_output", item["status"] == nil {
            item.append("status", "completed")
        }
        return item
    }

    /// An `input_image` part with `detail` `auto` when it has none (the store keeps no detail), as the API lists one and the
    /// SDKs' `ResponseInputImage` requires (decision 0133); other parts as they are.
    private static func withDetail(_ part: JSONValue) -> JSONValue {
        guard var object = part.objectValue, object["type"]?.stringValue == "input_image", object["detail"] == nil else { return part }
        object.append("detail", "auto")
        return .object(object)
    }

    /// An `output_text` part with an empty `annotations` list when it has none (other parts as they are).
    private static func withAnnotations(_ part: JSONValue) -> JSONValue {
        guard var object = part.objectValue, object["type"]?.stringValue == "output_text", object["annotations"] == nil else { return part }
        object.append("annotations", [])
        return .object(object)
    }
}
