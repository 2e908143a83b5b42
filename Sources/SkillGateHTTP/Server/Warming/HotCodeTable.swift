/// The code a request runs through, as `Bench/profile/hot_code.py` measured it under callgrind: the 64-byte lines of
/// each function the event loops executed, and of the shared libraries they called (decision 0054).
///
/// The table has two phases (`Phase`): the code from a request's head to its upstream request, and the code from the
/// upstream answer's first bytes to the reply. The text form, one entry per line (`#` starts a comment):
///
///     P <phase>                          the following entries belong to `request` or `answer` (entries before any
///                                        `P` line belong to `request`)
///     F <symbol hash> <lines>            a function of the executable, by the FNV-1a hash of its symbol name (16 hex
///                                        digits); lines counted from the cache line holding the symbol's first byte
///     L <name> <build id, hex> <lines>   a shared library; lines counted from its load address, used only when the
///                                        loaded library has exactly that build id
///
/// A function or library that runs in both phases has an entry in each.
///
/// `<lines>` is a comma-separated list of hexadecimal line numbers and ranges (`0-3,7,1a-1c`). Functions are named by
/// hash so that the table stays small: it is read once at start and its pages count towards idle memory.
public struct HotCodeTable: Sendable, Equatable {
    /// When on a request's way the code runs, and so when it is worth warming.
    public enum Phase: String, Sendable, CaseIterable {
        /// From the request's head to the upstream request sent: warmed when a request arrives at a loop that slept.
        case request
        /// From the upstream answer's first bytes to the reply: warmed while the loop waits for them, and again when
        /// they arrive after a sleep.
        case answer
    }

    /// A function of the executable.
    public struct Function: Sendable, Equatable {
        /// `HotCodeTable.symbolHash` of the function's (mangled) symbol name.
        public var symbolHash: UInt64
        /// Its lines: a range of `HotCodeTable.lines`.
        public var lines: Range<Int>
        /// The phase whose code these lines are.
        public var phase: Phase = .request
    }

    /// A shared library, matched by its GNU build id.
    public struct Library: Sendable, Equatable {
        /// The library's file name, for messages only.
        public var name: String
        /// The build id in lowercase hexadecimal.
        public var buildID: String
        /// Its lines: a range of `HotCodeTable.lines`.
        public var lines: Range<Int>
        /// The phase whose code these lines are.
        public var phase: Phase = .request
    }

    public private(set) var functions: [Function] = []
    public private(set) var libraries: [Library] = []
    /// Every entry's 64-byte line numbers, one range per entry.
    public private(set) var lines: [UInt32] = []

    public init() {}

    /// Reads the text form; throws on the first malformed entry, naming its line.
    public init(parsing text: String) throws(HotCodeTableError) {
        var number = 0
        var phase = Phase.request
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            let content = raw.prefix { $0 != UInt8(ascii: "#") }
            let fields = content.split(separator: UInt8(ascii: " "))
            guard let kind = fields.first else { continue }
            if kind.elementsEqual("P".utf8), fields.count == 2 {
                guard let named = Phase(rawValue: String(decoding: fields[1], as: UTF8.self)) else {
                    throw HotCodeTableError(line: number, problem: "\"\(String(decoding: fields[1], as: UTF8.self))\" is not a phase (request or answer)")
                }
                phase = named
            } else if kind.elementsEqual("F".utf8), fields.count == 3 {
                guard fields[1].count == 16, let hash = Self.hex(fields[1]) else {
                    throw HotCodeTableError(line: number, problem: "\"\(String(decoding: fields[1], as: UTF8.self))\" is not a symbol hash (16 hex digits)")
                }
                let start = lines.count
                try appendLines(fields[2], at: number)
                functions.append(Function(symbolHash: hash, lines: start..<lines.count, phase: phase))
            } else if kind.elementsEqual("L".utf8), fields.count == 4 {
                let id = String(decoding: fields[2], as: UTF8.self).lowercased()
                guard !id.isEmpty, id.count % 2 == 0, id.utf8.allSatisfy(Self.isHexDigit) else {
                    throw HotCodeTableError(line: number, problem: "the build id \"\(id)\" is not hexadecimal bytes")
                }
                let start = lines.count
                try appendLines(fields[3], at: number)
                libraries.append(Library(name: String(decoding: fields[1], as: UTF8.self), buildID: id, lines: start..<lines.count, phase: phase))
            } else {
                throw HotCodeTableError(line: number, problem: "expected \"P <phase>\", \"F <symbol hash> <lines>\" or \"L <name> <build id> <lines>\"")
            }
        }
    }

    /// The 64-bit FNV-1a hash of a symbol name's bytes, as the table and `Bench/profile/hot_code.py` compute it.
    public static func symbolHash<Bytes: Sequence<UInt8>>(_ name: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    private mutating func appendLines(_ text: Substring.UTF8View.SubSequence, at number: Int) throws(HotCodeTableError) {
        for item in text.split(separator: UInt8(ascii: ",")) {
            let bounds = item.split(separator: UInt8(ascii: "-"), maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = bounds.first.flatMap(Self.hex), first <= UInt32.max,
                  let last = bounds.count == 2 ? Self.hex(bounds[1]) : first, last >= first, last <= UInt32.max, last - first < 1 << 16 else {
                throw HotCodeTableError(line: number, problem: "\"\(String(decoding: item, as: UTF8.self))\" is not a hexadecimal line number or range (a-b)")
            }
            lines.append(contentsOf: UInt32(first)...UInt32(last))
        }
    }

    private static func hex<Digits: Collection<UInt8>>(_ digits: Digits) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            switch byte {
            case 0x30...0x39: value = value << 4 | UInt64(byte - 0x30)
            case 0x61...0x66: value = value << 4 | UInt64(byte - 0x61 + 10)
            case 0x41...0x46: value = value << 4 | UInt64(byte - 0x41 + 10)
            default: return nil
            }
        }
        return value
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)
    }
}

/// A malformed hot-code table.
public struct HotCodeTableError: Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var problem: String
    public var description: String {
        "hot-code table line \(line): \(problem); regenerate the table with Bench/profile/hot_code.py"
    }
}
