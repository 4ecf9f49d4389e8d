import Foundation

/// The entity names of a model's current version, read the way `datamodel-gen` chooses that
/// version: the one `.xccurrentversion` names, else the bundle's only one. The plugin names one
/// output file per entity from them before the generator runs.
///
/// Read with a pattern rather than an XML parser: the plugin needs names only, and the generator,
/// which reports anything malformed, runs next.
enum ModelEntityNames {
    /// The names, in the model's order; empty when no version can be chosen (the generator then
    /// fails with its diagnostic).
    static func of(_ bundle: URL) -> [String] {
        guard let contents = currentContents(of: bundle), let text = try? String(contentsOf: contents, encoding: .utf8) else {
            return []
        }
        let range = NSRange(text.startIndex..., in: text)
        return entityTag.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { unescaped(String(text[$0])) }
        }
    }

    /// An `<entity …>` start tag and its `name` attribute.
    private static let entityTag = try! NSRegularExpression(pattern: #"<entity\s(?:[^>]*\s)?name="([^"]*)""#)

    private static func currentContents(of bundle: URL) -> URL? {
        guard bundle.pathExtension == "xcdatamodeld" else { return bundle.appending(path: "contents") }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: bundle.path))?
            .filter { $0.hasSuffix(".xcdatamodel") } ?? []
        let marker = bundle.appending(path: ".xccurrentversion")
        if let data = try? Data(contentsOf: marker),
           let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
           var name = plist["_XCCurrentVersionName"] as? String {
            if !name.hasSuffix(".xcdatamodel") { name += ".xcdatamodel" }
            return bundle.appending(path: name).appending(path: "contents")
        }
        return versions.count == 1 ? bundle.appending(path: versions[0]).appending(path: "contents") : nil
    }

    /// The XML escapes an attribute value may hold.
    private static func unescaped(_ value: String) -> String {
        guard value.contains("&") else { return value }
        return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
