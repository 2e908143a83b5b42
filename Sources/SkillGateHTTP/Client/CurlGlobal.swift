import CCurl

/// libcurl's process-wide initialisation. `curl_global_init` is not thread-safe; a `static let`
/// initialiser runs exactly once (swift_once), so concurrent clients never race on it.
enum CurlGlobal {
    private static let initCode: CURLcode = sg_global_init_default()

    /// Initialises libcurl once; returns a description of the failure, or nil when ready.
    static func initialise() -> String? {
        let code = initCode
        if code == CURLE_OK { return nil }
        return "curl_global_init failed: \(String(cString: curl_easy_strerror(code)))"
    }
}
