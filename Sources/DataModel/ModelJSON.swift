import Foundation

/// The stable JSON form of a model, as `datamodel-gen dump --format json` prints it.
///
/// Keys are sorted, arrays keep document order, absent optional values are left out, and locations
/// carry line and column only (never the file's path), so the text is the same wherever the model lives.
public enum ModelJSON {
    public static func data(from model: Model) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var copy = model
        copy.path = (model.path as NSString).lastPathComponent
        return try encoder.encode(copy)
    }

    public static func string(from model: Model) throws -> String {
        String(decoding: try data(from: model), as: UTF8.self)
    }
}
