import DataModel
import Foundation

/// Turns a model into Swift source files for `DataStore`.
///
/// The stages, each on in-memory values:
/// 1. `ModelContextBuilder`: the model → a typed `ModelContext` (names, types, slots, requests),
///    with diagnostics for what it renamed or left out;
/// 2. `TemplateSet`: the context → text, through the Mustache templates;
/// 3. the file set: one file per entity plus the model file, or a single file.
///
/// Nothing here touches the disk: `datamodel-gen` reads models and templates and writes files.
///
///     let result = try SwiftGenerator().generate(model)
///     for file in result.files { print(file.name) }
///
/// For a bundle of several versions, pass them all: the model file then carries each version's
/// definition, which migration needs to open stores that earlier versions wrote.
///
///     let loaded = try ModelLoader().loadVersions("Models/Library.xcdatamodeld")
///     let result = try SwiftGenerator().generate(
///         loaded.versions[loaded.current].model, versions: loaded.versions.map(\.model))
public struct SwiftGenerator: Sendable {
    public var options: GeneratorOptions
    public var templates: TemplateSet

    public init(options: GeneratorOptions = GeneratorOptions(), templates: TemplateSet? = nil) throws(TemplateError) {
        self.options = options
        if let templates {
            self.templates = templates
        } else {
            self.templates = try TemplateSet()
        }
    }

    /// What generation produced: files, or none when a diagnostic is an error.
    public struct Result: Sendable {
        public var files: [GeneratedFile]
        public var diagnostics: [Diagnostic]
    }

    /// The template context of `model`, as the templates see it.
    ///
    /// - Parameters:
    ///   - model: the version to generate.
    ///   - versions: every version of the model's bundle, oldest first, `model` among them
    ///     (found by version name and path; added at the end when missing). Empty, or `model`
    ///     alone, for a model of one version.
    ///   - mappingModels: mapping models found beside the bundle; those that connect an earlier
    ///     version to a later one are compiled into the model file, with keys for their policies.
    public func context(for model: Model, versions: [Model] = [], mappingModels: [MappingModel] = []) -> (context: ModelContext, diagnostics: [Diagnostic]) {
        var builder = ModelContextBuilder(model: model, versions: versions, modelName: Self.modelName(of: model), options: options)
        builder.mappingModels = mappingModels
        let context = builder.build()
        return (context, builder.diagnostics)
    }

    /// The files for `model`; no files when the model has errors (`model`'s own diagnostics are the
    /// caller's: validate before generating).
    ///
    /// - Parameters:
    ///   - model: the version to generate.
    ///   - versions: every version of the model's bundle, oldest first, `model` among them,
    ///     as `ModelLoader.loadVersions` reads them. With more than one, the model file defines
    ///     each version and passes them all to `ManagedObjectModel`; `model` stays `definition`.
    ///   - mappingModels: mapping models found beside the bundle, compiled when they connect two
    ///     of `versions`: opening a store with the generated `model` runs them.
    public func generate(_ model: Model, versions: [Model] = [], mappingModels: [MappingModel] = []) -> Result {
        let (context, diagnostics) = context(for: model, versions: versions, mappingModels: mappingModels)
        guard !diagnostics.containsErrors else { return Result(files: [], diagnostics: diagnostics) }
        return Result(files: files(for: context), diagnostics: diagnostics)
    }

    /// The model's name: its `.xcdatamodeld` (or `.xcdatamodel`) without the extension, or the
    /// file's name without its extension for a model read from elsewhere (`Library.sqlite`).
    public static func modelName(of model: Model) -> String {
        let components = model.path.split(separator: "/").map(String.init)
        for suffix in [".xcdatamodeld", ".xcdatamodel"] {
            if let bundle = components.last(where: { $0.hasSuffix(suffix) }) { return String(bundle.dropLast(suffix.count)) }
        }
        guard let file = components.last(where: { $0 != "contents" }) else { return "Model" }
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    /// The names of the files `generate` writes for `model`, without rendering them, as
    /// `options.layout` names them.
    public func fileNames(for model: Model) -> [String] {
        let (context, _) = context(for: model)
        return options.layout == .singleFile ? [modelFileName(context)] : context.entities.map(\.fileName) + [modelFileName(context)]
    }

    /// The model file's name: after the model in the single-file and incremental layouts (which
    /// the build plugin must know from the model's folder), else after the namespace.
    private func modelFileName(_ context: ModelContext) -> String {
        options.layout == .entityFiles ? "\(context.typeName).swift" : "\(context.modelName).swift"
    }

    private func files(for context: ModelContext) -> [GeneratedFile] {
        let modelImports = (context.imports + context.modelImports).sorted()
        // Files render independently: one per core. Slot `count` is the model file.
        let entities = context.entities
        var bodies = Array(repeating: "", count: entities.count + 1)
        bodies.withUnsafeMutableBufferPointer { buffer in
            // Each iteration writes its own element only.
            nonisolated(unsafe) let output = buffer
            DispatchQueue.concurrentPerform(iterations: output.count) { index in
                output[index] = index == entities.count
                    ? templates.render(context, with: "model")
                    : templates.render(EntityTemplateContext(model: context, entity: entities[index]), with: "entity")
            }
        }
        let entityBodies = zip(entities, bodies).map { ($0.fileName, $1) }
        let modelBody = bodies[entities.count]
        if options.layout == .singleFile {
            let body = [header(context, imports: modelImports)] + entityBodies.map(\.1) + [modelBody]
            return [GeneratedFile(name: modelFileName(context), joining: body)]
        }
        // Incremental entity files spell their part of the model with `DataModel` values.
        let entityImports = options.layout == .incremental ? modelImports : context.imports
        return entityBodies.map { GeneratedFile(name: $0.0, joining: [header(context, imports: entityImports), $0.1]) }
            + [GeneratedFile(name: modelFileName(context), joining: [header(context, imports: modelImports), modelBody])]
    }

    private func header(_ context: ModelContext, imports: [String]) -> String {
        templates.render(HeaderTemplateContext(sourceFileName: context.sourceFileName, imports: imports), with: "header")
    }
}

/// What the `header` template sees.
struct HeaderTemplateContext {
    var sourceFileName: String
    var imports: [String]
}

/// What the `entity` template sees: the entity, inside the model (`{{#entity}}…{{access}}…{{/entity}}`).
struct EntityTemplateContext {
    var access: String
    var isObservable: Bool
    var modelName: String
    var typeName: String
    var entitiesEnumName: String?
    var sourceFileName: String
    var entity: EntityContext

    init(model: ModelContext, entity: EntityContext) {
        access = model.access
        isObservable = model.isObservable
        modelName = model.modelName
        typeName = model.typeName
        entitiesEnumName = model.entitiesEnumName
        sourceFileName = model.sourceFileName
        self.entity = entity
    }
}
