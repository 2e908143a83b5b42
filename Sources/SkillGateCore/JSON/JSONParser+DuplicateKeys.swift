/// Refusing an object that names a key twice (`JSONDuplicateKeys.refused`): `walkObject` hands each key to
/// `registerKey` as it is walked, whether the object is built into a tree, read by a cursor's reader or skipped, so the
/// check is written once, like the grammar.
extension JSONParser {
    /// Checks the key whose opening quote is at `quote` (the cursor is just past its closing quote; `sawEscape` says
    /// whether it had an escape) against the keys before it in its object, whose first key is `keys.spans[first]`, and
    /// registers it. Throws at `quote` when the object named the key before.
    mutating func registerKey(quoteAt quote: Int, objectFrom first: Int) throws(JSONSyntaxError) {
        let span = JSONKeyRegister.Span(start: quote + 1, end: index - 1, escaped: sawEscape)
        let earlier = keys.spans.count - first
        if earlier < JSONKeyRegister.scanLimit {
            var i = first
            while i < keys.spans.count {
                if sameKey(keys.spans[i], span) { throw duplicateKey(span, first: keys.spans[i]) }
                i += 1
            }
        } else {
            try registerInTable(span, objectFrom: first, earlier: earlier)
        }
        keys.spans.append(span)
    }

    /// The object has `scanLimit` keys or more: the key is looked up in its table (made now, from its keys so far, when
    /// the object reaches `scanLimit`) and added there.
    @inline(never)
    private mutating func registerInTable(_ span: JSONKeyRegister.Span, objectFrom first: Int, earlier: Int) throws(JSONSyntaxError) {
        var table: JSONKeyTable
        if let last = keys.tables.last, last.owner == first {
            table = keys.tables.removeLast()   // moved out while it changes, so it is not copied
        } else {
            table = JSONKeyTable(owner: first, capacity: earlier * 4)
            for i in first..<keys.spans.count {   // checked one by one before: distinct
                let hash = keyHash(keys.spans[i])
                var slot = table.firstSlot(hash)
                while table.slots[slot] != 0 { slot = (slot + 1) & table.mask }
                table.insert(i, hash: hash, at: slot)
            }
        }
        let hash = keyHash(span)
        var slot = table.firstSlot(hash)
        while table.slots[slot] != 0 {
            let other = keys.spans[table.slots[slot] - 1]
            if table.hashes[slot] == hash, sameKey(other, span) { throw duplicateKey(span, first: other) }
            slot = (slot + 1) & table.mask
        }
        table.insert(keys.spans.count, hash: hash, at: slot)
        keys.tables.append(table)
    }

    /// Whether two keys have the same decoded value, byte for byte. Keys without escapes are compared as they are
    /// written (their lengths first); a key with one is decoded first.
    private func sameKey(_ a: JSONKeyRegister.Span, _ b: JSONKeyRegister.Span) -> Bool {
        if !a.escaped && !b.escaped {
            let count = a.end - a.start
            guard count == b.end - b.start else { return false }
            var i = 0
            while i < count {
                if buffer[a.start + i] != buffer[b.start + i] { return false }
                i += 1
            }
            return true
        }
        return sameDecodedKey(a, b)
    }

    @inline(never)
    private func sameDecodedKey(_ a: JSONKeyRegister.Span, _ b: JSONKeyRegister.Span) -> Bool {
        decodedKey(a) == decodedKey(b)
    }

    /// The hash of a key's decoded bytes.
    private func keyHash(_ span: JSONKeyRegister.Span) -> Int {
        var hasher = Hasher()
        if span.escaped {
            decodedKey(span).withUnsafeBytes { hasher.combine(bytes: $0) }
        } else {
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[span.start..<span.end]))
        }
        return hasher.finalize()
    }

    /// A key's value as UTF-8 bytes: its escapes decoded (it was checked when it was read, so decoding cannot fail).
    private func decodedKey(_ span: JSONKeyRegister.Span) -> [UInt8] {
        let raw = UnsafeBufferPointer(rebasing: buffer[span.start..<span.end])
        guard span.escaped else { return Array(raw) }
        var scratch = JSONParser(buffer: buffer, maxDepth: maxDepth, duplicateKeys: .allowed)
        return [UInt8](unsafeUninitializedCapacity: raw.count) { out, written in
            written = (try? scratch.decodeEscapes(from: span.start, to: span.end, into: out)) ?? 0
        }
    }

    /// The error for `span`, a key its object named first at `first`: it names the key (at most 64 characters of it,
    /// as a JSON string) and both places, and says what to do.
    @inline(never)
    private func duplicateKey(_ span: JSONKeyRegister.Span, first: JSONKeyRegister.Span) -> JSONSyntaxError {
        let name = String(decoding: decodedKey(span), as: UTF8.self)
        let shown = name.prefix(65).count > 64 ? JSONValue.string(String(name.prefix(64))).serialized() + "…" : JSONValue.string(name).serialized()
        return JSONSyntaxError(reason: "the key \(shown) appears twice in one object (first at byte \(first.start - 1)); send each key once",
                               offset: span.start - 1)
    }
}
