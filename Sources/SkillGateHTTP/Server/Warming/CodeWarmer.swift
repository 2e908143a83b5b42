import CCodeWarming
import Glibc

/// Prefetches the code a request runs through into the CPU's second-level cache, for an event loop that slept
/// (decision 0054).
///
/// A core that sat idle runs a request several times slower than a busy one: its caches lost the ~5,000 code lines the
/// request path touches, and each is then fetched from memory one miss at a time. Prefetching the same lines costs a
/// few microseconds because the fetches overlap. The lines come from a `HotCodeTable` measured on a release build, in
/// two phases (the request's way to the upstream, and the answer's way back), so that each warming fetches only the
/// code about to run. Functions are found by name in the executable's own symbol table and libraries by build id, so a
/// table taken from another build still places what it can and skips the rest (`resolution` says how much).
public final class CodeWarmer: Sendable {
    /// How much of the table the running process could place.
    public struct Resolution: Sendable, Equatable, CustomStringConvertible {
        public var functionsListed = 0
        public var functionsFound = 0
        public var librariesListed = 0
        public var librariesFound = 0
        /// Code lines that `warm(.request)` prefetches.
        public var requestLines = 0
        /// Code lines that `warm(.answer)` prefetches.
        public var answerLines = 0

        public var description: String {
            "\(functionsFound) of \(functionsListed) hot functions and \(librariesFound) of \(librariesListed) libraries found, "
                + "\(requestLines) request and \(answerLines) answer code lines"
        }
    }

    /// Absolute addresses of each phase's code lines, in ascending order (indexed like `HotCodeTable.Phase.allCases`).
    private let addresses: [[UInt]]
    public let resolution: Resolution

    /// Places `table` in this process. `executable` is read for its symbol table (the running binary by default).
    public init(table: HotCodeTable, executable: String = "/proc/self/exe") {
        var resolution = Resolution()
        var addresses = [[UInt]](repeating: [], count: HotCodeTable.Phase.allCases.count)
        let objects = LoadedObject.all()
        let listed = Set(table.functions.map(\.symbolHash))
        resolution.functionsListed = listed.count
        if let main = objects.first {
            let symbols = ELFFunctionSymbols.lookup(listed, in: executable)
            resolution.functionsFound = listed.count { symbols[$0] != nil }
            for function in table.functions {
                guard let symbol = symbols[function.symbolHash] else { continue }
                // Lines are counted in whole cache lines from the one holding the symbol's first byte.
                let first = (main.base &+ symbol.address) & ~UInt(63)
                let span = (symbol.address & 63) + max(symbol.size, 1)
                for line in table.lines[function.lines] where UInt(line) * 64 < span {
                    let address = first &+ UInt(line) * 64
                    if main.text.contains(address) { addresses[function.phase.index].append(address) }
                }
            }
        }
        var librariesFound = Set<String>()
        for library in table.libraries {
            guard let object = objects.dropFirst().first(where: { $0.buildID == library.buildID }) else { continue }
            librariesFound.insert(library.buildID)
            for line in table.lines[library.lines] {
                let address = object.base &+ UInt(line) * 64
                if object.text.contains(address) { addresses[library.phase.index].append(address) }
            }
        }
        resolution.librariesListed = Set(table.libraries.map(\.buildID)).count
        resolution.librariesFound = librariesFound.count
        // Functions that share a cache line list it each; one prefetch per line is enough.
        addresses = addresses.map { Set($0).sorted() }
        resolution.requestLines = addresses[HotCodeTable.Phase.request.index].count
        resolution.answerLines = addresses[HotCodeTable.Phase.answer.index].count
        self.addresses = addresses
        self.resolution = resolution
    }

    /// Parses `text` (`HotCodeTable`'s text form) and places it, then returns the parse's and the symbol lookup's
    /// temporaries (a few hundred kilobytes) to the system: idle memory is one of the gateway's targets.
    public static func placing(_ text: String, executable: String = "/proc/self/exe") throws(HotCodeTableError) -> CodeWarmer {
        let warmer = CodeWarmer(table: try HotCodeTable(parsing: text), executable: executable)
        sg_release_free_heap()
        return warmer
    }

    /// Prefetches every placed line of `phase` (a few microseconds for a few thousand lines).
    public func warm(_ phase: HotCodeTable.Phase) {
        addresses[phase.index].withUnsafeBufferPointer { sg_prefetch_lines($0.baseAddress, $0.count) }
    }
}

extension HotCodeTable.Phase {
    /// The phase's position in `allCases`.
    var index: Int { self == .request ? 0 : 1 }
}

/// An object mapped into this process: the executable (first) or a shared library.
struct LoadedObject {
    var name: String
    var base: UInt
    /// The GNU build id in lowercase hexadecimal; empty when the object has none.
    var buildID: String
    /// The executable segment's addresses.
    var text: Range<UInt>

    static func all() -> [LoadedObject] {
        var raw = [sg_loaded_object](repeating: sg_loaded_object(), count: 512)
        let count = Int(raw.withUnsafeMutableBufferPointer { sg_loaded_objects($0.baseAddress, Int32($0.count)) })
        return raw.prefix(count).map { object in
            var id = ""
            if let bytes = object.build_id {
                for i in 0..<Int(object.build_id_size) {
                    let byte = bytes[i]
                    id += String(byte >> 4, radix: 16) + String(byte & 0xf, radix: 16)
                }
            }
            return LoadedObject(name: object.name.map { String(cString: $0) } ?? "", base: object.base, buildID: id,
                                text: object.text_start..<max(object.text_start, object.text_end))
        }
    }
}
