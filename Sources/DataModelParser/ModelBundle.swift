import DataModel
import Foundation

/// Which `contents` file a path means: the rules for `.xcdatamodeld` bundles and their versions.
struct ModelBundle {
    var contentsPath: String
    var versionName: String?
    var availableVersions: [String]

    static let versionExtension = ".xcdatamodel"
    static let bundleExtension = ".xcdatamodeld"

    static func resolve(_ path: String, version: String?) throws(ModelLoadingError) -> ModelBundle {
        let file = SourceLocation(file: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelLoadingError(.notFound, "no such file or directory", at: file)
        }
        guard isDirectory.boolValue else {
            if version != nil {
                throw ModelLoadingError(.unknownVersion, "a model version can only be chosen in an .xcdatamodeld bundle", at: file)
            }
            return ModelBundle(contentsPath: path, versionName: nil, availableVersions: [])
        }
        let versions = versionFolders(in: path)
        let isBundle = path.trimmingTrailingSlashes.hasSuffix(bundleExtension)
            || (!versions.isEmpty && !exists(join(path, "contents")))
        if isBundle {
            return try resolveVersion(in: path, versions: versions, requested: version)
        }
        if version != nil {
            throw ModelLoadingError(.unknownVersion, "a model version can only be chosen in an .xcdatamodeld bundle", at: file)
        }
        return ModelBundle(contentsPath: try contents(ofVersionFolder: path), versionName: nil, availableVersions: [])
    }

    private static func resolveVersion(
        in bundle: String, versions: [String], requested: String?
    ) throws(ModelLoadingError) -> ModelBundle {
        let location = SourceLocation(file: bundle)
        let listed = versions.map { "'\($0)'" }.joined(separator: ", ")
        guard !versions.isEmpty else {
            throw ModelLoadingError(.notAModel, "the bundle holds no \(versionExtension) version", at: location)
        }
        let chosen: String
        if let requested {
            let name = requested.hasSuffix(versionExtension) ? String(requested.dropLast(versionExtension.count)) : requested
            guard versions.contains(name) else {
                throw ModelLoadingError(.unknownVersion, "the bundle has no version '\(name)'; it has \(listed)", at: location)
            }
            chosen = name
        } else if let current = try currentVersion(of: bundle) {
            guard versions.contains(current) else {
                throw ModelLoadingError(
                    .unknownVersion,
                    ".xccurrentversion names version '\(current)', which is not in the bundle; it has \(listed)",
                    at: SourceLocation(file: join(bundle, ".xccurrentversion")))
            }
            chosen = current
        } else if versions.count == 1 {
            chosen = versions[0]
        } else {
            throw ModelLoadingError(
                .ambiguousVersion,
                "the bundle has \(versions.count) versions and no .xccurrentversion marks one current: \(listed); choose one with --model-version",
                at: location)
        }
        let folder = join(bundle, chosen + versionExtension)
        return ModelBundle(
            contentsPath: try contents(ofVersionFolder: folder), versionName: chosen, availableVersions: versions)
    }

    /// The version named in `.xccurrentversion`, without its extension; nil when the file is absent.
    private static func currentVersion(of bundle: String) throws(ModelLoadingError) -> String? {
        let path = join(bundle, ".xccurrentversion")
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
        guard let dictionary = plist as? [String: Any], let name = dictionary["_XCCurrentVersionName"] as? String else {
            throw ModelLoadingError(
                .malformedXML, "not a property list with a '_XCCurrentVersionName' string",
                at: SourceLocation(file: path))
        }
        return name.hasSuffix(versionExtension) ? String(name.dropLast(versionExtension.count)) : name
    }

    private static func contents(ofVersionFolder folder: String) throws(ModelLoadingError) -> String {
        let contents = join(folder, "contents")
        if exists(contents) { return contents }
        if exists(join(folder, "elements")) {
            throw ModelLoadingError(
                .legacyBinaryFormat,
                "this model is in the pre-Xcode 4 binary format ('elements' and 'layout' files); open it in Xcode 4 or later and save it to convert it to XML",
                at: SourceLocation(file: folder))
        }
        throw ModelLoadingError(.notAModel, "the folder has no 'contents' file, so it is not a Core Data model", at: SourceLocation(file: folder))
    }

    /// Version folder names without extension, oldest first: numbers in names compare as numbers,
    /// so `Model 10` follows `Model 9`, as Xcode lists them.
    static func versionFolders(in bundle: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bundle)) ?? []
        return names.filter { $0.hasSuffix(versionExtension) }
            .map { String($0.dropLast(versionExtension.count)) }
            .sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }
    }

    private static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.trimmingTrailingSlashes + "/" + name
    }
}

extension String {
    fileprivate var trimmingTrailingSlashes: String {
        var result = self
        while result.count > 1 && result.hasSuffix("/") { result.removeLast() }
        return result
    }
}
