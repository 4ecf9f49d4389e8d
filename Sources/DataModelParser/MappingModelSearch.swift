import DataModel
import Foundation

extension MappingModelParser {
    /// The paths of the mapping models in the folder holding the model bundle at `bundlePath`
    /// and in its subfolders, sorted: where Xcode projects keep them (beside the bundle, or in a
    /// `Migrations/` folder of their own), and where an app's build copies them from, as Core
    /// Data finds the compiled ones among the app's resources. Hidden folders and build products
    /// (`.build`, `DerivedData`) are not searched, nor bundles themselves.
    public static func mappingModelPaths(near bundlePath: String) -> [String] {
        let folder = URL(fileURLWithPath: bundlePath).standardizedFileURL.deletingLastPathComponent()
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles]) else {
            return []
        }
        var found: [String] = []
        for case let url as URL in walk {
            let name = url.lastPathComponent
            if name.hasSuffix(".xcmappingmodel") {
                found.append(url.path)
                walk.skipDescendants()
            } else if name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcdatamodel") || ["DerivedData", "Pods", "Carthage"].contains(name) {
                walk.skipDescendants()
            }
        }
        return found.sorted()
    }
}
