import SkillGateCore

/// What `ToolListCache.read(_:scope:_:)` found at a JSON cursor.
enum ToolListRead<Value> {
    /// A list the caller sent before, checked: the cursor is past it.
    case cached([ToolDefinition])
    /// A list read afresh by the caller's reader, with its bytes when they are small enough to keep once the request
    /// decodes (`ToolListCache.remember`): the cursor is past it.
    case read(Value, bytes: [UInt8]?)
    /// Not an array: nothing consumed.
    case notAnArray
}

extension ToolListCache {
    /// Reads the `tools` array at the cursor, from the cache when this caller sent the same bytes before in `scope` (a
    /// kept list is recognised by the bytes ahead, without reading them, or by its exact bytes once read), else with
    /// `reader` over the array's own bytes (already checked in full by the cursor, so they read as they would in place;
    /// the reader's cursor refuses repeated keys when `c` does).
    /// A body reader calls this at its `tools` member and keeps what it returns; the surface's decoder decides what is
    /// remembered.
    func read<Value>(_ c: inout JSONCursor, scope: String,
                     _ reader: (inout JSONCursor) throws(JSONSyntaxError) -> Value) throws(JSONSyntaxError) -> ToolListRead<Value> {
        if let hit = tools(atStartOf: c.bytesAhead, scope: scope) {
            c.skipRecognisedValue(length: hit.length)
            return .cached(hit.tools)
        }
        guard let bytes = try c.readArrayBytes() else { return .notAnArray }
        if let tools = tools(for: bytes, scope: scope) { return .cached(tools) }
        let value = try JSONCursor.read(bytes, duplicateKeys: c.duplicateKeys, reader)
        return .read(value, bytes: bytes.count <= maxEntryBytes ? Array(bytes) : nil)
    }
}

extension ToolListCache {
    /// Keeps `tools`, decoded from `bytes`, as `remember` does, with their schemas first turned into compact text when
    /// the list is small enough to keep: the cache hands a kept list out on every turn, and each upstream body then
    /// copies its schemas instead of writing trees (decision 0068). `tools` becomes the list as kept.
    func rememberWithSchemasAsText(_ tools: inout [ToolDefinition], decodedFrom bytes: [UInt8], scope: String) {
        guard !bytes.isEmpty, bytes.count <= maxEntryBytes else { return }
        for i in tools.indices where !tools[i].schema.isText {
            tools[i].schema = ToolSchema(keepingTextOf: tools[i].parameters)
        }
        remember(tools, decodedFrom: bytes, scope: scope)
    }
}
