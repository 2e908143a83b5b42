import Synchronization

extension ToolSchema {
    /// Names a form derived from a schema (`ToolSchema.derived`); a wire format declares its own as a static constant.
    public struct DerivedForm: Sendable, Equatable {
        /// A name unique among the forms, for example `gemini.parameters`.
        public let name: String

        public init(_ name: String) { self.name = name }
    }

    /// A schema's compact text and the forms derived from it, shared by every copy of the schema: one reference to
    /// retain when a tool list is copied, as the text's own buffer was. The forms are a few, found by a linear scan
    /// under a lock; they are not part of the schema's value.
    final class KeptText: Sendable {
        let bytes: [UInt8]
        private let forms = Mutex<[(form: DerivedForm, bytes: [UInt8])]>([])

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func derived(_ form: DerivedForm) -> [UInt8]? {
            forms.withLock { forms in forms.first { $0.form == form }?.bytes }
        }

        /// Keeps `bytes` for `form` unless another caller kept some first; returns what is kept.
        func keep(_ bytes: [UInt8], for form: DerivedForm) -> [UInt8] {
            forms.withLock { forms in
                if let kept = forms.first(where: { $0.form == form }) { return kept.bytes }
                forms.append((form, bytes))
                return bytes
            }
        }
    }
}
