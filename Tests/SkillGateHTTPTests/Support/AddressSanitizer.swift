#if canImport(Glibc)
import Glibc
#endif

/// Whether this test process runs under AddressSanitizer (`scripts/sanitize.sh address`): its runtime is linked in.
enum AddressSanitizer {
    static let isActive: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
}
