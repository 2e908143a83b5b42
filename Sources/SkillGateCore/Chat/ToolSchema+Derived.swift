import Synchronization

extension ToolSchema {
    /// Names a form derived from a schema (`ToolSchema.derived`); a wire format declares its own as a static constant.
    public struct DerivedForm: Sendable, Equatable {
        /// A name unique among the forms, for example `gemini.parameters`.
        public let name: String

        public init(_ name: String) { self.name = name }
    }

    /// A schema's compact text, the forms derived from it and its tree once built, shared by every copy of the schema:
    /// one reference to retain when a tool list is copied, as the text's own buffer was. The forms are a few, found by a
    /// linear scan under a lock; neither they nor the tree are part of the schema's value.
    final class KeptText: Sendable {
        let bytes: [UInt8]
        private let forms = Mutex<[(form: DerivedForm, bytes: [UInt8])]>([])
        /// The text's tree once someone asked for it (`ToolSchema.value`), when the text is short enough to keep it.
        private let keptTree: Mutex<JSONValue?>

        init(_ bytes: [UInt8], tree: JSONValue? = nil) {
            self.bytes = bytes
            keptTree = Mutex(tree)
        }

        /// The text as a tree: the kept one, or parsed now (and kept unless the text is over `treeKeepLimit`).
        func tree() -> JSONValue {
            if let kept = keptTree.locked({ $0 }) { return kept }
            let parsed = (try? JSONValue.parse(bytes)) ?? .object(JSONObject())
            guard bytes.count <= ToolSchema.treeKeepLimit else { return parsed }
            return keptTree.locked { kept in
                if let first = kept { return first }
                kept = parsed
                return parsed
            }
        }

        var keepsTree: Bool { keptTree.locked { $0 != nil } }

        func derived(_ form: DerivedForm) -> [UInt8]? {
            forms.locked { forms in forms.first { $0.form == form }?.bytes }
        }

        /// Keeps `bytes` for `form` unless another caller kept some first; returns what is kept.
        func keep(_ bytes: [UInt8], for form: DerivedForm) -> [UInt8] {
            forms.locked { forms in
                if let kept = forms.first(where: { $0.form == form }) { return kept.bytes }
                forms.append((form, bytes))
                return bytes
            }
        }
    }
}
