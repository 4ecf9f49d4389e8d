import Foundation

/// What the plugins find in a target: its models, the files generation reads, and its options.
struct ModelInputs {
    /// An `.xcdatamodeld` or `.xcdatamodel` folder of the target.
    struct ModelBundle {
        var url: URL
        /// The bundle name without extension: the generated file is `<name>.swift`.
        var name: String { url.deletingPathExtension().lastPathComponent }
    }

    /// The options of `datamodel-gen.json` in the target folder.
    struct Configuration: Decodable {
        var accessLevel: String?
        var additionalImports: [String]?
        /// `false` generates classes that do not take part in Observation (`--no-observation`).
        var observable: Bool?
        /// A folder of templates, relative to the target folder.
        var templates: String?
    }

    static let configurationFileName = "datamodel-gen.json"

    var models: [ModelBundle]
    /// The target's `.xcmappingmodel` bundles: generation compiles those beside a model.
    var mappingModels: [URL]
    var configuration: Configuration
    var configurationURL: URL?
    var templatesURL: URL?

    /// Finds the models under `directory` (outermost bundles only: a version inside an
    /// `.xcdatamodeld` is part of it) and reads the configuration file.
    init(targetDirectory directory: URL) throws {
        var models: [ModelBundle] = []
        var mappingModels: [URL] = []
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            if ["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension) {
                models.append(ModelBundle(url: url))
                enumerator?.skipDescendants()
            } else if url.pathExtension == "xcmappingmodel" {
                mappingModels.append(url)
                enumerator?.skipDescendants()
            }
        }
        self.models = models.sorted { $0.url.path < $1.url.path }
        self.mappingModels = mappingModels.sorted { $0.path < $1.path }
        let configurationURL = directory.appending(path: Self.configurationFileName)
        if FileManager.default.fileExists(atPath: configurationURL.path) {
            self.configurationURL = configurationURL
            do {
                configuration = try JSONDecoder().decode(Configuration.self, from: Data(contentsOf: configurationURL))
            } catch {
                throw PluginError("\(configurationURL.path): error: \(error)")
            }
        } else {
            configuration = Configuration()
        }
        templatesURL = configuration.templates.map { directory.appending(path: $0) }
        let names = self.models.map(\.name)
        if let duplicate = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw PluginError("two models of the target are named '\(duplicate)'; the generated files would clash")
        }
    }

    /// Every file whose change must rerun generation: model contents, version choices, the
    /// configuration, the templates, and the target's mapping models (a superset of those beside
    /// the model, which the generator finds itself).
    func inputFiles(of model: ModelBundle) -> [URL] {
        var files = mappingModels.map { $0.appending(path: "xcmapping.xml") }
        for root in [model.url] + (templatesURL.map { [$0] } ?? []) {
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                let name = url.lastPathComponent
                if name == "contents" || name == ".xccurrentversion" || url.pathExtension == "mustache" { files.append(url) }
            }
        }
        if let configurationURL { files.append(configurationURL) }
        return files.sorted { $0.path < $1.path }
    }

    /// The `datamodel-gen generate` options from the configuration.
    var generatorArguments: [String] {
        var arguments: [String] = []
        if let level = configuration.accessLevel { arguments += ["--access-level", level] }
        for module in configuration.additionalImports ?? [] { arguments += ["--additional-import", module] }
        if configuration.observable == false { arguments.append("--no-observation") }
        if let templatesURL { arguments += ["--templates", templatesURL.path] }
        return arguments
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
