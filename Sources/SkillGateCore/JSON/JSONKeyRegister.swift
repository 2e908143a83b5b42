/// The keys of the objects a cursor is inside, kept while it reads with `JSONDuplicateKeys.refused`, so each new key is
/// checked against the ones before it in its object (`JSONParser.registerKey`).
///
/// One array for the whole document, used as a stack: an object's keys are pushed as they are met and taken off when
/// it closes, so the array holds only the keys of the objects enclosing the cursor and a document costs one allocation
/// (its first key), not one per object. Up to `scanLimit` keys an object's new key is compared with each earlier one
/// (a length comparison, for most); past that the object gets a hash table (`JSONKeyTable`), so a key costs a bounded
/// number of comparisons whatever the object's size: a document is checked in time linear in its bytes.
struct JSONKeyRegister {
    /// Where one key's content lies in the document (between its quotes), and whether it holds a backslash: then its
    /// bytes are not its value, and it is decoded to be compared.
    struct Span {
        var start: Int
        var end: Int
        var escaped: Bool
    }

    /// The keys met so far in each object being walked, the innermost object's last.
    var spans: [Span] = []
    /// The hash tables of the open objects with more than `scanLimit` keys, the innermost last.
    var tables: [JSONKeyTable] = []

    /// How many earlier keys of one object a new key is compared with one by one; an object with more gets a table.
    static let scanLimit = 16

    /// Takes off the keys from `first` on and the tables of their objects: an object closed, or a reader went back to
    /// a `JSONCursor.Mark`.
    @inline(__always)
    mutating func close(from first: Int) {
        if spans.count > first { spans.removeLast(spans.count - first) }
        while let last = tables.last, last.owner >= first { tables.removeLast() }
    }
}

/// One object's keys past `JSONKeyRegister.scanLimit`: an open-addressing table (linear probing, at most half full) of
/// indices into the register's spans, by the hash of each key's decoded bytes. `Hasher` is seeded per process, so a
/// client cannot choose keys that all land in one slot.
struct JSONKeyTable {
    /// The index in `JSONKeyRegister.spans` of the object's first key.
    let owner: Int
    /// Per slot: the index in `spans` of the key there, plus one (0: the slot is empty).
    private(set) var slots: [Int]
    /// Per slot: the hash of the key there.
    private(set) var hashes: [Int]
    private(set) var count = 0

    init(owner: Int, capacity: Int) {
        self.owner = owner
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = Array(repeating: 0, count: size)
        hashes = Array(repeating: 0, count: size)
    }

    /// The first slot to probe for `hash`; the next is `(slot + 1) & mask`.
    func firstSlot(_ hash: Int) -> Int { hash & (slots.count - 1) }
    var mask: Int { slots.count - 1 }

    /// Puts the key at `index` (in `spans`) into the empty slot `slot`, which probing for `hash` ended at; grows the
    /// table when it is half full.
    mutating func insert(_ index: Int, hash: Int, at slot: Int) {
        slots[slot] = index + 1
        hashes[slot] = hash
        count += 1
        if count * 2 > slots.count { grow() }
    }

    private mutating func grow() {
        let oldSlots = slots, oldHashes = hashes
        slots = Array(repeating: 0, count: oldSlots.count * 2)
        hashes = Array(repeating: 0, count: oldSlots.count * 2)
        for i in oldSlots.indices where oldSlots[i] != 0 {
            var slot = firstSlot(oldHashes[i])
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = oldSlots[i]
            hashes[slot] = oldHashes[i]
        }
    }
}
