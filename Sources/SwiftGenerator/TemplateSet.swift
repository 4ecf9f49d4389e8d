import DataModel
import Mustache

/// The templates the generator renders: the defaults of `Templates/` (embedded in the binary),
/// each replaceable by a user template of the same name.
///
/// Three templates make the output: `header` (the comment and imports of every file), `entity`
/// (one entity's class) and `model` (the model namespace). Every default stays available as
/// `default-NAME`, so an override can change a single block by inheritance:
///
///     {{<default-entity}}{{$extraMembers}}    var label: String { title }{{/extraMembers}}{{/default-entity}}
public struct TemplateSet: Sendable {
    /// The names of the templates the generator renders.
    public static let names = ["header", "entity", "model"]

    let library: MustacheLibrary

    /// The default templates, with `overrides` (template text by template name) in their place.
    ///
    /// - Throws: `TemplateError` naming the template, line and column of a syntax error, or an
    ///   override whose name is not a template's.
    public init(overrides: [String: String] = [:]) throws(TemplateError) {
        var library = MustacheLibrary()
        for (name, text) in Self.defaults.sorted(by: { $0.key < $1.key }) {
            let template = try Self.parse(text, named: name)
            library.register(template, named: name)
            library.register(template, named: "default-\(name)")
        }
        for (name, text) in overrides.sorted(by: { $0.key < $1.key }) {
            guard Self.defaults[name] != nil else {
                throw TemplateError(template: name, line: 0, column: 0,
                                    message: "no template is named '\(name)'; templates are \(Self.names.joined(separator: ", "))")
            }
            library.register(try Self.parse(text, named: name), named: name)
        }
        self.library = library
    }

    /// The text of the default template `name`, for users who start an override from it.
    public static func defaultText(of name: String) -> String? { defaults[name] }

    func render(_ context: Any, with name: String) -> String {
        library.render(context, withTemplate: name) ?? ""
    }

    private static func parse(_ text: String, named name: String) throws(TemplateError) -> MustacheTemplate {
        do {
            return try MustacheTemplate(string: text)
        } catch let error as MustacheTemplate.ParserError {
            throw TemplateError(template: name, line: error.context.lineNumber, column: error.context.columnNumber,
                                message: "\(error.error)")
        } catch {
            throw TemplateError(template: name, line: 0, column: 0, message: "\(error)")
        }
    }
}

/// A template that cannot be used: where it is wrong and why.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    public var template: String
    public var line: Int
    public var column: Int
    public var message: String

    /// `entity.mustache:3:7: error: …`, the shape editors jump to.
    public var description: String {
        "\(SourceLocation(file: "\(template).mustache", line: line, column: column)): error: \(message)"
    }
}
