import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

/// Crude HTML-to-text: drops script/style contents and tags, decodes a few entities, collapses blank space.
enum HTMLText {
    static func plain(_ html: String) -> String {
        var out = "", tag = "", inTag = false, skipping: String?
        for c in html {
            if inTag {
                if c == ">" {
                    inTag = false
                    let name = tag.lowercased().split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "/" }).first.map(String.init) ?? ""
                    if let s = skipping { if tag.lowercased().hasPrefix("/\(s)") { skipping = nil } }
                    else if name == "script" || name == "style" { skipping = name }
                    if ["p", "br", "div", "li", "tr", "h1", "h2", "h3", "h4", "/p", "/div", "/li", "/tr"].contains(where: { tag.lowercased().hasPrefix($0) }) { out.append("\n") }
                } else { tag.append(c) }
            } else if c == "<" {
                inTag = true
                tag = ""
            } else if skipping == nil {
                out.append(c)
            }
        }
        for (entity, value) in [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            out = out.replacing(entity, with: value)
        }
        var lines: [String] = []
        for line in out.split(separator: "\n", omittingEmptySubsequences: true) {
            let collapsed = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
            if !collapsed.isEmpty { lines.append(collapsed) }
        }
        return lines.joined(separator: "\n")
    }
}
