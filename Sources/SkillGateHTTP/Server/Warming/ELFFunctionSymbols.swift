import Glibc

/// Finds functions in an ELF64 file's symbol table (`.symtab`) by the hash of their names
/// (`HotCodeTable.symbolHash`), reading the file through a private mapping that is dropped again before returning.
/// Used once at start to place the hot-code table's functions (decision 0054).
enum ELFFunctionSymbols {
    /// A function's file address (`st_value`) and size.
    struct Symbol: Equatable {
        var address: UInt
        var size: UInt
    }

    /// The functions whose name hashes are among `hashes` that the file at `path` defines (the first of equal hashes);
    /// an unreadable or non-ELF64 file gives none.
    static func lookup(_ hashes: Set<UInt64>, in path: String) -> [UInt64: Symbol] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [:] }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 64 else { return [:] }
        let size = Int(info.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else { return [:] }
        defer { munmap(mapped, size) }
        return lookup(hashes, in: UnsafeRawBufferPointer(start: mapped, count: size))
    }

    /// The same over an image already in memory.
    static func lookup(_ hashes: Set<UInt64>, in image: UnsafeRawBufferPointer) -> [UInt64: Symbol] {
        guard image.count > 64, image.loadUnaligned(as: UInt32.self) == 0x464c_457f,   // "\x7fELF"
              image[4] == 2, image[5] == 1 else { return [:] }                            // 64-bit, little-endian
        guard let sections = sectionHeaders(image) else { return [:] }
        var found: [UInt64: Symbol] = [:]
        for section in sections where section.type == 2 {                                 // SHT_SYMTAB
            guard section.entrySize == 24, section.link < sections.count else { continue }
            let strings = sections[section.link]
            guard let symbols = slice(image, section.offset, section.size), let names = slice(image, strings.offset, strings.size) else {
                continue
            }
            for index in 0..<(symbols.count / 24) {
                let entry = index * 24
                guard symbols[entry + 4] & 0xf == 2 else { continue }                      // STT_FUNC
                let address = UInt(symbols.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self))
                let nameOffset = Int(symbols.loadUnaligned(fromByteOffset: entry, as: UInt32.self))
                guard address != 0, nameOffset < names.count else { continue }
                var end = nameOffset
                while end < names.count, names[end] != 0 { end += 1 }
                let hash = HotCodeTable.symbolHash(UnsafeRawBufferPointer(rebasing: names[nameOffset..<end]))
                guard hashes.contains(hash), found[hash] == nil else { continue }
                found[hash] = Symbol(address: address, size: UInt(symbols.loadUnaligned(fromByteOffset: entry + 16, as: UInt64.self)))
            }
        }
        return found
    }

    private struct Section {
        var type: UInt32
        var offset: Int
        var size: Int
        var link: Int
        var entrySize: Int
    }

    private static func sectionHeaders(_ image: UnsafeRawBufferPointer) -> [Section]? {
        let table = Int(truncatingIfNeeded: image.loadUnaligned(fromByteOffset: 0x28, as: UInt64.self))
        let entrySize = Int(image.loadUnaligned(fromByteOffset: 0x3a, as: UInt16.self))
        let count = Int(image.loadUnaligned(fromByteOffset: 0x3c, as: UInt16.self))
        guard entrySize >= 64, count > 0, table > 0, table <= image.count - entrySize * count else { return nil }
        return (0..<count).map { i in
            let at = table + i * entrySize
            return Section(type: image.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self),
                           offset: Int(truncatingIfNeeded: image.loadUnaligned(fromByteOffset: at + 24, as: UInt64.self)),
                           size: Int(truncatingIfNeeded: image.loadUnaligned(fromByteOffset: at + 32, as: UInt64.self)),
                           link: Int(image.loadUnaligned(fromByteOffset: at + 40, as: UInt32.self)),
                           entrySize: Int(truncatingIfNeeded: image.loadUnaligned(fromByteOffset: at + 56, as: UInt64.self)))
        }
    }

    private static func slice(_ image: UnsafeRawBufferPointer, _ offset: Int, _ size: Int) -> UnsafeRawBufferPointer? {
        guard offset >= 0, size >= 0, offset <= image.count, size <= image.count - offset else { return nil }
        return UnsafeRawBufferPointer(rebasing: image[offset..<(offset + size)])
    }
}
