/// The versions of one `.xcdatamodeld` bundle, and which of them is current.
extension Model {
    /// Whether `other` is this version of this bundle: the same version name and file.
    public func isSameVersion(as other: Model) -> Bool {
        versionName == other.versionName && path == other.path
    }

    /// `versions` (oldest first) with `current` among them — added at the end when missing, so no
    /// versions means a bundle of one — and the position of `current`.
    public static func bundle(_ versions: [Model], current: Model) -> (versions: [Model], current: Int) {
        if let index = versions.lastIndex(where: { $0.isSameVersion(as: current) }) { return (versions, index) }
        return (versions + [current], versions.count)
    }
}
