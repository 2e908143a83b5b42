import Testing
@testable import SkillGateCore

/// `ToolSchema` keeps a checked object as compact text: its input without whitespace when that is exactly its tree's
/// serialisation, else its tree written out; and a schema is the same value whichever form it is kept in.
@Suite struct ToolSchemaTests {
    /// The schema of the object at the start of `text`, read the way the inbound decoder reads one.
    static func schema(_ text: [UInt8]) throws -> ToolSchema {
        try text.withUnsafeBufferPointer { buffer in
            try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) -> ToolSchema in
                guard let bytes = try c.readObjectBytes() else { return ToolSchema(.null) }
                return ToolSchema(checkedObject: bytes)
            }
        }
    }

    static let pretty: [String] = [
        #"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}"#,
        "{ \"type\" : \"object\",\n  \"properties\": {\n\t\"city\": { \"type\": \"string\", \"enum\": [ \"Paris\" , \"Rome\" ] }\r\n  },\n  \"required\": [\"city\"] }",
        #"{"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 2.50e3}}, "additionalProperties": false}"#,
        #"{"description": "spaces inside strings stay: a , b : c { } [ ]", "x": [ ]  , "y" : { } }"#,
        #"{"ville": "Zürich — 東京", "nested": [[[{"deep": [true, false, null]}]]]}"#,
        "{}",
    ]

    @Test(arguments: pretty)
    func aPlainSchemaIsKeptAsItsCompactTree(text: String) throws {
        let schema = try Self.schema(Array(text.utf8))
        let tree = try JSONValue.parse(text)
        #expect(schema.isText)
        #expect(schema.compactText == tree.serializedBytes())
        #expect(schema.value == tree)
        var written: [UInt8] = [0x5B]
        schema.write(to: &written)
        #expect(written == [0x5B] + tree.serializedBytes())
    }

    static let escaped: [String] = [
        #"{"description": "say \"hi\""}"#,
        #"{"a\u0062c": 1}"#,
        #"{"path": "C:\\temp\/x", "tab": "a\tb"}"#,
        #"{"emoji": "\ud83d\ude00"}"#,
    ]

    /// Its compact text is its tree written out, not its input with the whitespace dropped.
    @Test(arguments: escaped)
    func aSchemaWithAnEscapeIsKeptAsItsTreeWrittenOut(text: String) throws {
        let schema = try Self.schema(Array(text.utf8))
        let tree = try JSONValue.parse(text)
        #expect(schema.isText)
        #expect(schema.value == tree)
        #expect(schema.compactText == tree.serializedBytes())
    }

    @Test func equalityAndHashingDoNotDependOnTheForm() throws {
        let text = Array(Self.pretty[1].utf8)
        let kept = try Self.schema(text)
        let built = ToolSchema(try JSONValue.parse(text))
        #expect(kept.isText && !built.isText)
        #expect(kept == built && built == kept)
        #expect(kept.hashValue == built.hashValue)
        let other = ToolSchema(["type": "object"])
        #expect(kept != other && other != kept)
        #expect(try Self.schema(Array(Self.pretty[0].utf8)) != kept)
    }

    @Test func aToolKeepsTheSchemaItIsGivenAndATreeReplacesIt() throws {
        let kept = try Self.schema(Array(Self.pretty[1].utf8))
        var tool = ToolDefinition(name: "weather", schema: kept)
        #expect(tool.schema.isText)
        #expect(tool.parameters == kept.value)
        #expect(tool == ToolDefinition(name: "weather", parameters: kept.value))
        var object = try #require(tool.parameters.objectValue)
        object["title"] = "Weather"
        tool.parameters = .object(object)
        #expect(!tool.schema.isText)
        #expect(tool.parameters["title"] == "Weather")
        #expect(tool.parameters["properties"] == kept.value["properties"])
    }

    /// Generated objects, with random whitespace and every escape: whichever way a schema's text was made (its input
    /// copied, or its tree written out for an escape), the text is the tree's serialisation and its value the tree;
    /// both ways occur.
    @Test(arguments: [UInt64(3), 7, 11])
    func generatedObjectsKeepTheirValue(seed: UInt64) async throws {
        var generator = JSONDocumentGenerator(seed: seed)
        var made = (copied: 0, written: 0)
        for _ in 0..<300 {
            let document = generator.document().bytes
            let tree = try JSONValue.parse(document)
            guard tree.objectValue != nil else { continue }
            let start = document.firstIndex(of: UInt8(ascii: "{"))!
            let schema = try Self.schema(Array(document[start...]))
            #expect(schema.compactText == tree.serializedBytes(), "\(String(decoding: document, as: UTF8.self))")
            #expect(schema.value == tree)
            #expect(schema == ToolSchema(tree))
            #expect(schema.isText)
            let copied = Array(document[start...]).withUnsafeBufferPointer { ToolSchema.compacted($0) != nil }
            if copied { made.copied += 1 } else { made.written += 1 }
        }
        #expect(made.copied > 0 && made.written > 0, "\(made)")
    }

    /// A derived form is made once per schema kept as text and shared by its copies; forms are kept apart by name; a
    /// new schema (or a replaced one) starts without them; a tree derives on every call; and what is kept plays no part
    /// in equality or hashing.
    @Test func derivedFormsAreMadeOncePerSchemaAndSharedByCopies() throws {
        let first = ToolSchema.DerivedForm("test.first"), second = ToolSchema.DerivedForm("test.second")
        let schema = try Self.schema(Array(#"{"type":"object","properties":{"a":{"type":"string"}}}"#.utf8))
        #expect(schema.isText)
        var made: [String] = []
        func derive(_ s: ToolSchema, _ form: ToolSchema.DerivedForm) -> [UInt8] {
            s.derived(form) { s in made.append(form.name); return s.compactText + Array(form.name.utf8) }
        }
        #expect(derive(schema, first) == schema.compactText + Array("test.first".utf8))
        let copy = schema
        #expect(derive(copy, first) == schema.compactText + Array("test.first".utf8))
        #expect(derive(copy, second) == schema.compactText + Array("test.second".utf8))
        #expect(derive(schema, second) == schema.compactText + Array("test.second".utf8))
        #expect(made == ["test.first", "test.second"])
        let fresh = ToolSchema(keepingTextOf: schema.value)
        #expect(fresh.isText && fresh == schema && fresh.hashValue == schema.hashValue)
        _ = derive(fresh, first)
        #expect(made == ["test.first", "test.second", "test.first"])
        let tree = ToolSchema(schema.value)
        #expect(tree == schema && tree.hashValue == schema.hashValue)
        #expect(derive(tree, first) == schema.compactText + Array("test.first".utf8))
        _ = derive(tree, first)
        #expect(made.count == 5)
        var tool = ToolDefinition(name: "t", schema: schema)
        tool.parameters = schema.value
        _ = derive(tool.schema, first)
        #expect(made.count == 6)
    }

    /// `keptAsText` writes a tree out once and leaves a schema already kept as text as it is, forms and all.
    @Test func keptAsTextWritesATreeOnceAndKeepsText() throws {
        let form = ToolSchema.DerivedForm("test.kept")
        var made = 0
        func derive(_ s: ToolSchema) -> [UInt8] { s.derived(form) { s in made += 1; return s.compactText } }
        let tree = ToolSchema(["type": "object", "properties": ["q": ["type": "string", "description": "a \"quoted\"\nline"]]])
        #expect(!tree.isText)
        let kept = tree.keptAsText
        #expect(kept.isText && kept == tree && kept.compactText == tree.compactText && kept.value == tree.value)
        _ = derive(kept)
        let again = kept.keptAsText
        _ = derive(again)
        #expect(made == 1, "the same kept text, with the form made from it")
        _ = derive(tree.keptAsText)
        #expect(made == 2, "a tree kept anew starts without forms")
    }

    /// A schema kept as text builds its tree on the first `value` and keeps it for every copy (an answer's calls are
    /// checked against it per call); one made from a tree keeps that tree at once; a text over the limit is parsed on
    /// each call and keeps nothing.
    @Test func theTreeIsBuiltOnceAndKeptUpToTheLimit() throws {
        let text = Array(#"{"type":"object","properties":{"when":{"type":"string","description":"a \"date\""}},"required":["when"]}"#.utf8)
        let schema = try Self.schema(text)
        #expect(schema.isText && !schema.keepsTree)
        let copy = schema
        let tree = copy.value
        #expect(tree == (try JSONValue.parse(text)))
        #expect(schema.keepsTree && copy.keepsTree, "kept beside the text, for every copy")
        #expect(schema.value == tree && schema.compactText == text)

        let fromTree = ToolSchema(keepingTextOf: tree)
        #expect(fromTree.keepsTree && fromTree.value == tree)

        let long = JSONValue.object(["type": "object", "description": .string(String(repeating: "x", count: ToolSchema.treeKeepLimit))])
        let kept = ToolSchema(keepingTextOf: long)
        #expect(kept.isText && !kept.keepsTree)
        #expect(kept.value == long, "the long schema reads back as itself")
        #expect(!kept.keepsTree, "a schema longer than the limit is parsed on each call")
        #expect(!ToolSchema(long).keepsTree, "a tree schema is its tree")
    }

    /// Threads asking for the same form at once all get the one kept result.
    @Test func derivedFormsRaceToOneResult() async throws {
        let schema = ToolSchema(keepingTextOf: ["type": "object"])
        let form = ToolSchema.DerivedForm("test.race")
        let results = await withTaskGroup(of: [UInt8].self) { group in
            for i in 0..<16 { group.addTask { schema.derived(form) { _ in [UInt8(i)] } } }
            return await group.reduce(into: [[UInt8]]()) { $0.append($1) }
        }
        #expect(Set(results).count == 1 && results.count == 16)
    }

    /// Tasks asking a text schema for its tree at once all get the same tree, and the schema keeps one.
    @Test func treesRaceToOneKeptTree() async throws {
        let text = Array(#"{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}"#.utf8)
        let schema = try Self.schema(text)
        let trees = await withTaskGroup(of: JSONValue.self) { group in
            for _ in 0..<16 { group.addTask { schema.value } }
            return await group.reduce(into: [JSONValue]()) { $0.append($1) }
        }
        #expect(trees.count == 16 && trees.allSatisfy { $0 == (try? JSONValue.parse(text)) })
        #expect(schema.keepsTree)
    }
}
