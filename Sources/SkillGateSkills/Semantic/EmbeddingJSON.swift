import SkillGateCore

/// Reading embedding answers with `JSONCursor` (no tree for the thousands of numbers of a batch).
enum EmbeddingJSON {
    /// The array of numbers at the cursor; `nil` when the value is not an array of numbers (it is
    /// still consumed and checked).
    static func floats(_ c: inout JSONCursor) throws(JSONSyntaxError) -> [Float]? {
        var out: [Float] = []
        out.reserveCapacity(1024)
        var numeric = true
        let isArray = try c.readArray { (c) throws(JSONSyntaxError) in
            guard numeric, case .number(let literal) = try c.readValue(), let d = Double(literal) else {
                numeric = false
                return
            }
            out.append(Float(d))
        }
        return isArray && numeric ? out : nil
    }

    /// Reads `body` with `read`; a syntax error becomes `.malformed` naming what arrived.
    static func read(_ body: [UInt8], model: String, _ read: (inout JSONCursor) throws(JSONSyntaxError) -> Void) throws(EmbeddingError) {
        do {
            try body.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in
                try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) in try read(&c) }
            }
        } catch {
            let what = body.allSatisfy { $0 <= 0x20 } ? "an empty body" : "a body that is not JSON (\(error))"
            throw EmbeddingError.malformed("the answer is \(what)", model: model)
        }
    }
}
