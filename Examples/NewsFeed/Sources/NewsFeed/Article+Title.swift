import DataStore
import Foundation

extension Article {
    /// The headline, without the spaces and line breaks feeds leave around it: a custom accessor
    /// over the primitive value (the model marks `title` with `datamodel.accessor` = `custom`),
    /// observed and undone as a generated property is.
    var title: String {
        get {
            willAccessValue(forKey: "title")
            defer { didAccessValue(forKey: "title") }
            return primitiveTitle
        }
        set {
            willChangeValue(forKey: "title")
            primitiveTitle = newValue.trimmingCharacters(in: .whitespacesAndNewlines)
            didChangeValue(forKey: "title")
        }
    }
}
