// Writes the default templates into a Swift file as string literals, so `datamodel-gen` carries them
// in its binary and works when the executable is copied alone.
//
// Usage: template-embedder OUTPUT.swift TEMPLATE.mustache…
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: template-embedder OUTPUT.swift TEMPLATE.mustache…\n".utf8))
    exit(2)
}

/// A raw string literal delimiter longer than any run of `#` after a quote in `text`.
func delimiter(for text: String) -> String {
    var longest = 0
    var run = -1
    for character in text {
        if character == "\"" {
            run = 0
        } else if character == "#", run >= 0 {
            run += 1
            longest = max(longest, run)
        } else {
            run = -1
        }
    }
    return String(repeating: "#", count: longest + 1)
}

var source = "// The default templates of `Templates/`, written by Scripts/embed-templates.sh. Do not edit:\n"
source += "// edit Templates/*.mustache and run the script (a test fails while the two differ).\n\n"
source += "extension TemplateSet {\n    /// Every default template by name (its file name without `.mustache`).\n"
source += "    static let defaults: [String: String] = [\n"
for path in arguments.dropFirst().sorted() {
    let url = URL(fileURLWithPath: path)
    let name = url.deletingPathExtension().lastPathComponent
    let text = try String(contentsOf: url, encoding: .utf8)
    let hashes = delimiter(for: text)
    source += "        \"\(name)\": \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes),\n"
}
source += "    ]\n}\n"
try Data(source.utf8).write(to: URL(fileURLWithPath: output))
