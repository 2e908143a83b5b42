import FoundationEssentials
import SkillGateCore
import SkillGateHTTP

/// The web console's static files (`Console/` in the repository: HTML, CSS, JavaScript modules), read once at start
/// from `console.assets_dir` (by default `../Console` beside the config file, like `providers_dir`) and served from
/// memory at `/console/...` with a strict Content-Security-Policy. A lookup in a table of the files read, so no
/// request path can reach any other file. Decision 0030.
struct ConsoleAssets: Sendable {
    /// Where the console is served.
    static let root = "/console"
    /// Only files with these extensions are served, with these types.
    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon", "json": "application/json",
    ]
    /// Scripts, styles, images and requests from the gateway's own origin only; nothing inline, no frames, no forms
    /// posted elsewhere.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    struct File: Sendable {
        var contentType: String
        var bytes: [UInt8]
    }

    /// The files by path below the console root (`index.html`, `js/app.js`).
    let files: [String: File]
    /// The directory they were read from (for messages).
    let directory: String

    /// Reads every servable file below `directory`; nil when the directory does not exist.
    static func load(directory: String) -> ConsoleAssets? {
        let fm = FileManager.default
        var isDirectory: Bool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory,
              let paths = try? fm.subpathsOfDirectory(atPath: directory) else { return nil }
        var files: [String: File] = [:]
        for path in paths.sorted() {
            guard let ext = path.split(separator: ".").last.map(String.init), let type = contentTypes[ext],
                  !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                  let data = fm.contents(atPath: FilePath.join(directory, path)) else { continue }
            files[path] = File(contentType: type, bytes: Array(data))
        }
        return ConsoleAssets(files: files, directory: directory)
    }

    /// The file for a request path under `/console` (`/console` and `/console/` are `index.html`).
    func file(for path: String) -> File? {
        var relative = path.dropFirst(Self.root.count)
        while relative.hasPrefix("/") { relative = relative.dropFirst() }
        return files[relative.isEmpty ? "index.html" : String(relative)]
    }

    /// Total bytes of all files (the budget: under 200 KB).
    var totalBytes: Int { files.values.reduce(0) { $0 + $1.bytes.count } }

    /// The headers every console response carries.
    static func headers(contentType: String) -> HTTPHeaders {
        ["content-type": contentType, "content-security-policy": contentSecurityPolicy, "x-content-type-options": "nosniff",
         "referrer-policy": "no-referrer", "x-frame-options": "DENY", "cache-control": "no-cache"]
    }
}
