import CCodeWarming
import Glibc

/// Prefetches the code a request runs through into the CPU's second-level cache, for an event loop that slept
/// (decision 0054).
///
/// A core that sat idle runs a request several times slower than a busy one: its caches lost the ~5,000 code lines the
/// request path touches, and each is then fetched from memory one miss at a time. Prefetching the same lines costs a
/// few microseconds because the fetches overlap. The lines come from a `HotCodeTable` measured on a release build;
/// functions are found by name in the executable's own symbol table and libraries by build id, so a table taken from
/// another build still places what it can and skips the rest (`resolution` says how much).
public final class CodeWarmer: Sendable {
    /// How much of the table the running process could place.
    public struct Resolution: Sendable, Equatable, CustomStringConvertible {
        public var functionsListed = 0
        public var functionsFound = 0
        public var librariesListed = 0
        public var librariesFound = 0
        /// Code lines that `warm()` prefetches.
        public var lines = 0

        public var description: String {
            "\(functionsFound) of \(functionsListed) hot functions and \(librariesFound) of \(librariesListed) libraries found, \(lines) code lines"
        }
    }

    /// Absolute addresses of the code lines, in ascending order.
    private let addresses: [UInt]
    public let resolution: Resolution

    /// Places `table` in this process. `executable` is read for its symbol table (the running binary by default).
    public init(table: HotCodeTable, executable: String = "/proc/self/exe") {
        var resolution = Resolution(functionsListed: table.functions.count, librariesListed: table.libraries.count)
        var addresses: [UInt] = []
        let objects = LoadedObject.all()
        if let main = objects.first {
            let symbols = ELFFunctionSymbols.lookup(Set(table.functions.map(\.symbolHash)), in: executable)
            for function in table.functions {
                guard let symbol = symbols[function.symbolHash] else { continue }
                resolution.functionsFound += 1
                // Lines are counted in whole cache lines from the one holding the symbol's first byte.
                let first = (main.base &+ symbol.address) & ~UInt(63)
                let span = (symbol.address & 63) + max(symbol.size, 1)
                for line in table.lines[function.lines] where UInt(line) * 64 < span {
                    let address = first &+ UInt(line) * 64
                    if main.text.contains(address) { addresses.append(address) }
                }
            }
        }
        for library in table.libraries {
            guard let object = objects.dropFirst().first(where: { $0.buildID == library.buildID }) else { continue }
            resolution.librariesFound += 1
            for line in table.lines[library.lines] {
                let address = object.base &+ UInt(line) * 64
                if object.text.contains(address) { addresses.append(address) }
            }
        }
        addresses.sort()
        addresses = addresses.enumerated().compactMap { i, a in i > 0 && addresses[i - 1] == a ? nil : a }
        resolution.lines = addresses.count
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

    /// Prefetches every placed line (a few microseconds for a few thousand lines).
    public func warm() {
        addresses.withUnsafeBufferPointer { sg_prefetch_lines($0.baseAddress, $0.count) }
    }
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
