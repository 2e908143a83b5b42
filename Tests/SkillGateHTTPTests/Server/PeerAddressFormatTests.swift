import Testing
import Glibc
import CEvent

/// The accept path's own IPv4 formatting (`sg_ev_format_ipv4`) writes exactly what `inet_ntop` writes.
@Suite struct PeerAddressFormatTests {
    @Test func writesWhatInetNtopWritesForEveryOctetValue() {
        var mismatches: [String] = []
        for value in 0...255 {
            for position in 0..<4 {
                var octets: [UInt8] = [127, 0, 0, 1]
                octets[position] = UInt8(value)
                var address = in_addr()
                withUnsafeMutableBytes(of: &address.s_addr) { $0.copyBytes(from: octets) }
                var ours = [CChar](repeating: 0x7F, count: 16)
                var theirs = [CChar](repeating: 0, count: 64)
                sg_ev_format_ipv4(&address, &ours)
                _ = inet_ntop(AF_INET, &address, &theirs, socklen_t(theirs.count))
                let a = ours.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                let b = theirs.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                if a != b { mismatches.append("\(b) written as \(a)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func theLongestAddressFitsItsSixteenBytes() {
        var address = in_addr(s_addr: 0xFFFF_FFFF)
        var out = [CChar](repeating: 0x7F, count: 16)
        sg_ev_format_ipv4(&address, &out)
        #expect(out[15] == 0 && out.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } == "255.255.255.255")
    }
}
