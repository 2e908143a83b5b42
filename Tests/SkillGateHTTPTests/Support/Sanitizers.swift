#if canImport(Glibc)
import Glibc
#endif

/// Whether this test process runs under a sanitizer (`scripts/sanitize.sh address|thread`): its runtime is linked in.
enum Sanitizers {
    static let addressIsActive = linked("__asan_init")
    static let threadIsActive = linked("__tsan_init")

    /// AddressSanitizer's quarantine and ThreadSanitizer's allocator keep freed memory resident by design, so resident
    /// memory says nothing about what the code gave back.
    static var keepFreedMemory: Bool { addressIsActive || threadIsActive }

    private static func linked(_ symbol: String) -> Bool {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) != nil
    }
}
