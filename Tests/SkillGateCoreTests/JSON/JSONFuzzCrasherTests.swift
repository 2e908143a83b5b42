import Testing
import SkillGateTestSupport
import SkillGateCore

/// The `json` fuzzing target's crashers (Fuzz/crashers/json/): the tree parser and the cursor agree
/// on each (value or the same error), and an accepted document round-trips through the writer.
@Suite struct JSONFuzzCrasherTests {
    @Test(arguments: FuzzCrashers.names("json"))
    func parserCursorAndWriterAgree(_ name: String) throws {
        let data = try FuzzCrashers.bytes("json", name)
        let tree = Result { () throws(JSONSyntaxError) in try JSONValue.parse(data) }
        data.withUnsafeBufferPointer { buffer in
            let read = Result { () throws(JSONSyntaxError) in
                try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) in try c.readValue() }
            }
            #expect(read == tree)
            let skipped = Result { () throws(JSONSyntaxError) in try JSONCursor.read(buffer) { _ throws(JSONSyntaxError) in } }
            #expect((try? skipped.get()) != nil || (try? tree.get()) == nil)
        }
        guard case .success(let value) = tree else { return }
        let text = value.serializedBytes()
        #expect(try JSONValue.parse(text) == value)
        #expect(try JSONValue.parse(text).serializedBytes() == text)
    }
}
