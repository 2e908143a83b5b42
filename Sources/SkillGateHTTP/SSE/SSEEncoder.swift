/// Encodes events in the `text/event-stream` format.
import SkillGateCore

public enum SSEEncoder {
    /// The bytes of one event: optional `event:` and `id:` lines, one `data:` line per line of
    /// data, and the blank line that ends the event.
    public static func encode(_ event: SSEEvent) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(event.data.utf8.count + 32)
        append(event, to: &out)
        return out
    }

    /// Appends one encoded event to `out`.
    public static func append(_ event: SSEEvent, to out: inout [UInt8]) {
        if let name = event.event {
            out += "event: "
            out.append(contentsOf: singleLine(name).utf8)
            out.append(0x0A)
        }
        if let id = event.id {
            out += "id: "
            out.append(contentsOf: singleLine(id).utf8)
            out.append(0x0A)
        }
        if let retry = event.retry {
            out.append(contentsOf: "retry: \(retry)\n".utf8)
        }
        appendData(event.data, to: &out)
        out.append(0x0A)
    }

    /// Appends `data:` lines for `data` (split at LF, CRLF and CR) without the closing blank line.
    static func appendData(_ data: String, to out: inout [UInt8]) {
        var previousCR = false
        out += "data: "
        for b in data.utf8 {
            if b == 0x0A && previousCR { previousCR = false; continue }
            previousCR = (b == 0x0D)
            if b == 0x0A || b == 0x0D {
                out.append(0x0A)
                out += "data: "
                continue
            }
            out.append(b)
        }
        out.append(0x0A)
    }

    /// An event whose data is the compact JSON of `value` (JSON text never contains raw newlines).
    public static func encodeJSON(_ value: JSONValue, event: String? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        if let event {
            out += "event: "
            out.append(contentsOf: singleLine(event).utf8)
            out.append(0x0A)
        }
        out += "data: "
        value.write(to: &out)
        out.append(contentsOf: [0x0A, 0x0A])
        return out
    }

    /// A comment line (`: text`), used as a keep-alive or progress note; ignored by clients.
    public static func comment(_ text: String) -> [UInt8] {
        Array(": \(singleLine(text))\n\n".utf8)
    }

    private static func singleLine(_ s: String) -> String {
        s.contains(where: { $0 == "\n" || $0 == "\r" }) ? s.filter { $0 != "\n" && $0 != "\r" } : s
    }
}
