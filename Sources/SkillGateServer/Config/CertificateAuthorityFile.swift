import FoundationEssentials

/// Checks a provider's `ca_file` when the config is loaded, so a wrong path or a file libcurl cannot use is a config
/// error naming the file, not a TLS failure on the first request.
enum CertificateAuthorityFile {
    /// Larger than any CA bundle (the system's is ~200 KB): beyond it the path is surely not one.
    static let maxBytes = 16 * 1024 * 1024

    /// What is wrong with the file at `path` as a CA file, in words that say what to do, or `nil` when it holds at
    /// least one PEM certificate (the form libcurl's OpenSSL backend reads).
    static func problem(at path: String) -> String? {
        var isDirectory: Bool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory else {
            return "no file at \(path); give the path of a PEM file with the certificate authorities to trust (relative to the config file)"
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return "cannot read \(path); make it readable by the user that runs skillgate"
        }
        guard data.count <= maxBytes else { return "\(path) is \(data.count) bytes, too large for a file of CA certificates" }
        guard data.firstRange(of: Array("-----BEGIN CERTIFICATE-----".utf8)) != nil else {
            return "\(path) holds no PEM certificate (\"-----BEGIN CERTIFICATE-----\"); convert a DER file with `openssl x509 -inform der -in ca.der -out ca.pem`"
        }
        return nil
    }
}
