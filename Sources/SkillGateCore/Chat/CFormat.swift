#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// printf-style formatting through the C library's `vsnprintf` (what `String(format:)` offered, without linking
/// full Foundation). Only for numbers and C strings: `%d`, `%f`, `%g`, `%e`, `%x` and their flags and widths.
public enum CFormat {
    /// `format` with `arguments` substituted, as C's `snprintf` writes it.
    public static func string(_ format: String, _ arguments: any CVarArg...) -> String {
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 128)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            guard needed >= buffer.count else { return String(cString: buffer) }
            return withVaList(arguments) { again in
                var larger = [CChar](repeating: 0, count: needed + 1)
                _ = vsnprintf(&larger, larger.count, format, again)
                return String(cString: larger)
            }
        }
    }
}
