import Foundation
import Testing
@testable import SkillGateCore

/// Property tests of the one JSON grammar against Foundation's `JSONSerialization`: documents
/// generated from fixed seeds (a failure names its seed and index, so it reproduces) must be
/// accepted or rejected by `JSONValue.parse` as by Foundation, with the same values; and
/// `JSONCursor` must give the parser's value or error whether it reads everything, some of it or
/// nothing (skipping).
@Suite struct JSONFoundationAgreementTests {
    static let seeds: [UInt64] = Array(1...12)
    static let documentsPerSeed = 120

    // MARK: - Readers

    /// Every other member and element read (recursively), the rest left to be skipped; returns
    /// how many values were read.
    static func readSome(_ c: inout JSONCursor) throws(JSONSyntaxError) -> Int {
        var read = 1
        var odd = false
        let isObject = try c.readObject { (c, _) throws(JSONSyntaxError) in
            odd.toggle()
            if odd { read += try readSome(&c) }
        }
        if isObject { return read }
        let isArray = try c.readArray { (c) throws(JSONSyntaxError) in
            odd.toggle()
            if odd { read += try readSome(&c) }
        }
        if !isArray { _ = try c.readValue() }
        return read
    }

    static func show(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(400), as: UTF8.self).debugDescription + (bytes.count > 400 ? "…" : "")
    }

    /// Holds every reader to the parser's verdict and the parser to Foundation's; returns whether
    /// the parser accepted the document.
    @discardableResult
    static func check(_ bytes: [UInt8], _ label: String) -> Bool {
        let parsed = JSONTestReaders.viaParse(bytes)
        switch (parsed, FoundationJSON.parse(bytes)) {
        case (.success(let value), let theirs?):
            if let d = FoundationJSON.difference(value, theirs) { Issue.record("\(label): \(d) in \(show(bytes))") }
        case (.failure, nil):
            break
        case (.success, nil):
            Issue.record("\(label): the parser accepts what Foundation rejects: \(show(bytes))")
        case (.failure(let error), _?):
            Issue.record("\(label): the parser rejects (\(error)) what Foundation accepts: \(show(bytes))")
        }
        let verdict = parsed.map { _ in true }
        #expect(JSONTestReaders.viaCursor(bytes, JSONTestReaders.rebuild) == parsed, "\(label): the cursor reading everything, in \(show(bytes))")
        #expect(JSONTestReaders.viaCursor(bytes) { _ in true } == verdict, "\(label): the cursor skipping the document, in \(show(bytes))")
        #expect(JSONTestReaders.viaCursor(bytes) { (c) throws(JSONSyntaxError) in try c.skipValue(); return true } == verdict,
                "\(label): skipValue, in \(show(bytes))")
        #expect(JSONTestReaders.viaCursor(bytes, readSome).map { _ in true } == verdict, "\(label): the cursor reading some, in \(show(bytes))")
        return (try? parsed.get()) != nil
    }

    // MARK: - Generated documents

    @Test(arguments: seeds)
    func validDocumentsAreReadAsFoundationReadsThem(seed: UInt64) async {
        var generator = JSONDocumentGenerator(seed: seed)
        for i in 0..<Self.documentsPerSeed {
            await Task.yield()  // seconds of CPU in a debug build: let other tests' jobs use the pool between documents
            let document = generator.document().bytes
            #expect(Self.check(document, "seed \(seed) document \(i)"), "generated valid: \(Self.show(document))")
        }
    }

    @Test(arguments: seeds)
    func truncatedDocumentsAreRejectedAsFoundationRejectsThem(seed: UInt64) async {
        var generator = JSONDocumentGenerator(seed: seed)
        for i in 0..<Self.documentsPerSeed {
            await Task.yield()
            Self.check(generator.truncated(), "seed \(seed) truncation \(i)")
        }
    }

    @Test(arguments: seeds)
    func documentsWithABadLeafAreRejectedAsFoundationRejectsThem(seed: UInt64) async {
        var generator = JSONDocumentGenerator(seed: seed)
        var accepted = 0
        for i in 0..<Self.documentsPerSeed {
            await Task.yield()
            if Self.check(generator.poisoned(), "seed \(seed) poisoned \(i)") { accepted += 1 }
        }
        // A bad leaf can merge with its neighbours into valid text only by rare accident.
        #expect(accepted * 20 < Self.documentsPerSeed, "\(accepted) poisoned documents were valid: the generator lost its teeth")
    }

    // MARK: - Each bad leaf on its own and in every position

    /// Bytes named by their text in test results.
    struct Leaf: CustomTestStringConvertible, Sendable {
        var bytes: [UInt8]
        var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }
    }

    static let badLeaves: [Leaf] = (JSONDocumentGenerator.badNumbers.map { Array($0.utf8) }
        + JSONDocumentGenerator.badStrings + JSONDocumentGenerator.badLiterals.map { Array($0.utf8) }).map(Leaf.init)

    @Test(arguments: badLeaves)
    func aBadLeafIsRejectedAloneAndInsideContainers(_ bad: Leaf) {
        let leaf = bad.bytes
        let isString = leaf.first == UInt8(ascii: "\"")
        var documents: [[UInt8]] = [leaf, Array("[".utf8) + leaf + Array("]".utf8), Array("[1, ".utf8) + leaf + Array(" ,2]".utf8),
                                    Array(#"{"k":"#.utf8) + leaf + Array("}".utf8), Array(#"{"a":[{"b":"#.utf8) + leaf + Array("}]}".utf8)]
        if isString { documents.append(Array("{".utf8) + leaf + Array(#":1}"#.utf8)) }  // as a key
        for document in documents {
            #expect(!Self.check(document, "bad leaf"), "accepted: \(Self.show(document))")
        }
    }

    @Test(arguments: 0..<8)
    func readIntAgreesWithIntValueOnEveryNumberShape(seed: UInt64) throws {
        var generator = JSONDocumentGenerator(seed: seed)
        for _ in 0..<200 {
            let number = generator.number()
            let expected = try JSONValue.parse(number).intValue
            #expect(try JSONTestReaders.viaCursor(number) { (c) throws(JSONSyntaxError) in try c.readInt() }.get() == expected,
                    "\(String(decoding: number, as: UTF8.self))")
        }
    }

    // MARK: - Nesting

    static func nested(_ depth: Int, objects: Bool, mixed: Bool = false) -> [UInt8] {
        var open = "", close = ""
        for level in 0..<depth {
            let object = mixed ? level % 2 == 0 : objects
            open += object ? #"{"k":"# : "["
            close = (object ? "}" : "]") + close
        }
        return Array((open + "1" + close).utf8)
    }

    /// A third of a second of CPU per case in a debug build: it yields between its documents, as the generated ones do,
    /// so other tests' jobs get the shared task pool's threads meanwhile.
    @Test(arguments: [(false, false), (true, false), (false, true)])
    func nestingUpToTheLimitIsReadAndOneLevelMoreIsNot(objects: Bool, mixed: Bool) async {
        let limit = JSONValue.defaultMaxDepth
        #expect(Self.check(Self.nested(limit, objects: objects, mixed: mixed), "at the limit"))
        await Task.yield()
        let deeper = Self.nested(limit + 1, objects: objects, mixed: mixed)
        guard case .failure(let error) = JSONTestReaders.viaParse(deeper) else { Issue.record("one level past the limit was accepted"); return }
        #expect(error.reason == "nesting deeper than \(limit) levels")
        #expect(deeper[error.offset] == UInt8(ascii: objects || (mixed && limit % 2 == 0) ? "{" : "["))
        #expect(JSONTestReaders.viaCursor(deeper, JSONTestReaders.rebuild) == .failure(error))
        #expect(JSONTestReaders.viaCursor(deeper) { _ in 0 } == .failure(error))
        #expect(JSONTestReaders.viaCursor(deeper, Self.readSome) == .failure(error))
        // Far past both limits (Foundation's is 512), everyone rejects.
        await Task.yield()
        Self.check(Self.nested(600, objects: objects, mixed: mixed), "far past the limit")
    }

    // MARK: - Where Foundation departs from RFC 8259

    /// Foundation is more lenient than RFC 8259 in a few places; SkillGate follows the RFC (and
    /// its own depth limit). Foundation's side is asserted too, so a change in it is noticed.
    @Test(arguments: [
        ("[1,]", false, "a trailing comma in an array"), (#"{"a":1 ,}"#, false, "a trailing comma in an object"),
        ("\u{FEFF}1", false, "a byte-order mark"), ("1e400", true, "a number beyond Double (the literal is kept)"),
        ("[-1E+309]", true, "a negative number beyond Double"),
    ])
    func knownDisagreementsWithFoundation(text: String, weAccept: Bool, what: String) {
        let bytes = Array(text.utf8)
        #expect(((try? JSONTestReaders.viaParse(bytes).get()) != nil) == weAccept, "\(what)")
        #expect((FoundationJSON.parse(bytes) != nil) == !weAccept, "\(what): Foundation changed its mind")
    }

    @Test func foundationNestsDeeperThanTheLimit() {
        let deeper = Self.nested(JSONValue.defaultMaxDepth + 1, objects: false)
        #expect(FoundationJSON.parse(deeper) != nil)
        #expect((try? JSONTestReaders.viaParse(deeper).get()) == nil)
    }
}
