import Synchronization

extension ToolSchema {
    /// Names a form derived from a schema (`ToolSchema.derived`); a wire format declares its own as a static constant.
    public struct DerivedForm: Sendable, Equatable {
        /// A name unique among the forms, for example `gemini.parameters`.
        public let name: String

        public init(_ name: String) { self.name = name }
    }

    /// The derived forms of one schema: a few, looked up by a linear scan under a lock.
    final class DerivedForms: Sendable {
        private let forms = Mutex<[(form: DerivedForm, bytes: [UInt8])]>([])

        func bytes(for form: DerivedForm) -> [UInt8]? {
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
