/// POSIX path arithmetic on strings (what `NSString`'s path methods did, without linking full Foundation).
public enum FilePath {
    /// `directory` and `name` joined by one `/` (`name` alone when `directory` is empty).
    public static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        if name.hasPrefix("/") { return directory.hasSuffix("/") ? directory + name.dropFirst() : directory + name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The last component (`"b.json"` for `"/a/b.json"`), ignoring trailing slashes.
    public static func lastComponent(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The path without its last component (`"/a"` for `"/a/b.json"`, `""` for `"b.json"`, `"/"` for `"/b"`).
    public static func directory(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    /// `name` without its extension (`"b"` for `"b.json"`; a leading dot is not an extension).
    public static func deletingExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        return String(p)
    }
}
