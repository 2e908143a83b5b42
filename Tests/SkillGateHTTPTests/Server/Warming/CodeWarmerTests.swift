@testable import SkillGateHTTP
import CEvent
import SkillGateTestSupport
import Testing

/// A function of this test executable with a plain C symbol, so a test can compare where the symbol table says it is
/// with where the process has it.
@_cdecl("sg_code_warming_probe")
func codeWarmingProbe() -> Int32 { 7 }

private let probeHash = HotCodeTable.symbolHash("sg_code_warming_probe".utf8)
private var probeAddress: UInt { unsafeBitCast(codeWarmingProbe as @convention(c) () -> Int32, to: UInt.self) }

/// Placing the hot-code table in a running process (decision 0054): functions by symbol hash in the executable's own
/// symbol table, libraries by build id, and only lines that lie in the code they name.
///
/// A look through the symbol table of this (debug, hundreds of MB) test executable takes about half a second: on a
/// thread of its own (`offThePool`), not one of the shared task pool's.
@Suite struct CodeWarmerTests {
    @Test func symbolTableLookupFindsWhereTheProcessHasTheFunction() async throws {
        let main = try #require(LoadedObject.all().first)
        #expect(main.name.isEmpty, "the executable comes first")
        let symbols = try await offThePool { ELFFunctionSymbols.lookup([probeHash, 0x1234], in: "/proc/self/exe") }
        let probe = try #require(symbols[probeHash])
        #expect(main.base + probe.address == probeAddress)
        #expect(probe.size > 0)
        #expect(symbols[0x1234] == nil)
        #expect(main.text.contains(probeAddress))
    }

    @Test func unreadableOrForeignFilesGiveNoSymbols() {
        #expect(ELFFunctionSymbols.lookup([probeHash], in: "/nonexistent/skillgate").isEmpty)
        #expect(ELFFunctionSymbols.lookup([probeHash], in: "/proc/self/status").isEmpty)
    }

    @Test func librariesCarryTheirBuildIds() throws {
        let loop = unsafeBitCast(event_base_loop as @convention(c) (OpaquePointer?, Int32) -> Int32, to: UInt.self)
        let library = try #require(LoadedObject.all().dropFirst().first { $0.text.contains(loop) })
        #expect(library.name.contains("libevent"), "\(library.name)")
        #expect(library.buildID.count == 40, "a 20-byte GNU build id: \(library.buildID)")
    }

    @Test func placesWhatMatchesAndSkipsTheRest() async throws {
        let loop = unsafeBitCast(event_base_loop as @convention(c) (OpaquePointer?, Int32) -> Int32, to: UInt.self)
        let libevent = try #require(LoadedObject.all().dropFirst().first { $0.text.contains(loop) })
        let textLine = (libevent.text.lowerBound - libevent.base) / 64
        let table = try HotCodeTable(parsing: """
            F \(hex(probeHash)) 0,1-ffff
            F 0000000000001234 0
            L libevent \(libevent.buildID) \(String(textLine, radix: 16))
            L libevent \(String(repeating: "0", count: 40)) 0
            P answer
            F \(hex(probeHash)) 0
            L libevent \(libevent.buildID) \(String(textLine, radix: 16)),\(String(textLine + 1, radix: 16))
            """)
        let warmer = try await offThePool { CodeWarmer(table: table) }
        #expect(warmer.resolution.functionsListed == 2, "a function listed in both phases counts once")
        #expect(warmer.resolution.functionsFound == 1)
        #expect(warmer.resolution.librariesListed == 2)
        #expect(warmer.resolution.librariesFound == 1)
        // The probe's lines stop where the function ends (its size), not at the table's 0xffff.
        let symbols = try await offThePool { ELFFunctionSymbols.lookup([probeHash], in: "/proc/self/exe") }
        let probe = try #require(symbols[probeHash])
        let probeLines = Int(((probe.address & 63) + probe.size + 63) / 64)
        #expect(warmer.resolution.requestLines == probeLines + 1, "\(warmer.resolution)")
        #expect(warmer.resolution.answerLines == 3, "\(warmer.resolution)")
        warmer.warm(.request)
        warmer.warm(.answer)
    }

    @Test func placingParsesTrimsAndReports() async throws {
        let text = "F \(hex(probeHash)) 0"
        let warmer = try await offThePool { try CodeWarmer.placing(text) }
        #expect(warmer.resolution.description == "1 of 1 hot functions and 0 of 0 libraries found, 1 request and 0 answer code lines")
        #expect(throws: HotCodeTableError.self) { try CodeWarmer.placing("F nothex 0") }
    }

    private func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
