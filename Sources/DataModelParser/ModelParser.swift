import DataModel

/// A parsed model and what the parser noticed on the way (unknown XML, bad values).
public struct ParsedModel: Sendable, Equatable {
    public var model: Model
    public var diagnostics: [Diagnostic]

    public init(model: Model, diagnostics: [Diagnostic]) {
        self.model = model
        self.diagnostics = diagnostics
    }
}

/// Parses the XML of one `contents` file, held in memory.
///
///     let parsed = try ModelParser.parse(bytes, path: "Books.xcdatamodel/contents")
///     let problems = parsed.diagnostics + ModelValidator().validate(parsed.model)
public enum ModelParser {
    /// Parses `bytes` as a model's `contents` XML.
    ///
    /// - Parameters:
    ///   - bytes: the XML.
    ///   - path: how locations name the file in diagnostics.
    ///   - versionName: the version's name inside an `.xcdatamodeld`, if any.
    /// - Throws: `ModelLoadingError` when the bytes are not well-formed XML or not a Core Data model.
    public static func parse(_ bytes: [UInt8], path: String, versionName: String? = nil) throws(ModelLoadingError) -> ParsedModel {
        if bytes.starts(with: Array("bplist".utf8)) {
            throw ModelLoadingError(
                .notAModel, "this is a binary property list (a compiled model?), not model XML",
                at: SourceLocation(file: path))
        }
        let tree = try XMLTreeReader.read(bytes, path: path)
        guard tree.root.name == "model" else {
            throw ModelLoadingError(
                .notAModel, "the root element is <\(tree.root.name)>, not <model>: this is not a Core Data model",
                at: tree.root.location(in: path))
        }
        var decoder = ModelDecoder(path: path)
        let model = decoder.decodeModel(tree.root, versionName: versionName)
        return ParsedModel(model: model, diagnostics: (tree.diagnostics + decoder.diagnostics).sortedByLocation())
    }
}
