/// The rule for provider key names: `[A-Z0-9_]{1,64}`, like environment variable names.
public enum KeyName {
    /// The longest allowed name.
    public static let maxLength = 64

    /// Throws `KeyStoreError.invalidName` unless `name` follows the rule. The error describes the
    /// problem without repeating the name, which may be a secret pasted in the wrong place.
    public static func validate(_ name: String) throws(KeyStoreError) {
        let bytes = Array(name.utf8)
        if bytes.isEmpty { throw .invalidName(problem: "the name is empty") }
        if bytes.count > maxLength {
            throw .invalidName(problem: "the name is \(bytes.count) bytes long")
        }
        if bytes.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) {
            throw .invalidName(problem: "the name has lowercase letters (write it in uppercase)")
        }
        if !bytes.allSatisfy(isAllowed) {
            throw .invalidName(problem: "the name has characters other than A-Z, 0-9 and _")
        }
    }

    /// Whether `name` follows the rule.
    public static func isValid(_ name: String) -> Bool {
        (try? validate(name)) != nil
    }

    private static func isAllowed(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
    }
}
