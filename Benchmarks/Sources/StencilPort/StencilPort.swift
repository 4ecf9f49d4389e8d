import Foundation
import Stencil
import SwiftGenerator

/// Renders a model's template context with Stencil — SwiftGen's engine — through the default
/// templates ported line for line (`StencilTemplates`): the peer the generator is measured against.
public struct StencilPort {
    private let header: Template
    private let entity: Template
    private let model: Template

    public init() {
        // `.smart` drops the lines of block tags, as Mustache drops standalone tags.
        let environment = Environment(trimBehaviour: .smart)
        header = Template(templateString: StencilTemplates.header, environment: environment)
        entity = Template(templateString: StencilTemplates.entity, environment: environment)
        model = Template(templateString: StencilTemplates.model, environment: environment)
    }

    /// A context as SwiftGen hands one to Stencil: dictionaries and arrays of plain values.
    public static func dictionary(_ context: ModelContext) throws -> [String: Any] {
        let data = try JSONEncoder().encode(context)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The same context with every nested dictionary an `Object`: the fastest form Stencil reads.
    /// Stencil copies a dictionary deeply each time it resolves a name in it (and on Linux bridges
    /// it to `NSDictionary` on every cast), which made dictionaries 10× slower to render.
    public static func objects(_ context: ModelContext) throws -> [String: Any] {
        func wrap(_ value: Any) -> Any {
            switch value {
            case let dictionary as [String: Any]: Object(fields: dictionary.mapValues(wrap))
            case let array as [Any]: array.map(wrap)
            default: value
            }
        }
        return try dictionary(context).mapValues(wrap)
    }

    /// A context object whose fields Stencil finds by name, without copying or bridging.
    final class Object: DynamicMemberLookup {
        let fields: [String: Any]

        init(fields: [String: Any]) {
            self.fields = fields
        }

        subscript(dynamicMember member: String) -> Any? { fields[member] }
    }

    /// The files `SwiftGenerator` writes for the same context in the entity-files layout (one per
    /// entity, then the model file), or in the incremental one when `modelFileName` is given.
    public func files(for context: [String: Any], modelFileName: String? = nil) throws -> [GeneratedFile] {
        let imports = context["imports"] as? [String] ?? []
        let modelImports = (imports + (context["modelImports"] as? [String] ?? [])).sorted()
        func header(_ imports: [String]) throws -> String {
            try self.header.render(["sourceFileName": context["sourceFileName"] ?? "", "imports": imports])
        }
        // Entities that carry their part of the definition (the incremental layout) spell it with `DataModel`.
        let entityHeader = try header(context["entitiesEnumName"] == nil ? imports : modelImports)
        var files: [GeneratedFile] = []
        for entityContext in context["entities"] as? [Any] ?? [] {
            let body = try entity.render([
                "access": context["access"] ?? "", "isObservable": context["isObservable"] ?? true,
                "typeName": context["typeName"] ?? "",
                "entitiesEnumName": context["entitiesEnumName"] ?? "", "sourceFileName": context["sourceFileName"] ?? "",
                "entity": entityContext,
            ])
            let fields = (entityContext as? Object)?.fields ?? entityContext as? [String: Any] ?? [:]
            files.append(GeneratedFile(name: fields["fileName"] as? String ?? "", joining: [entityHeader, body]))
        }
        let typeName = context["typeName"] as? String ?? ""
        files.append(GeneratedFile(
            name: modelFileName ?? "\(typeName).swift", joining: [try header(modelImports), try model.render(context)]))
        return files
    }
}
