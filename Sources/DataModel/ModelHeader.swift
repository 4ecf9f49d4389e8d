/// The attributes of the `<model>` element: tool versions and model-wide flags.
public struct ModelHeader: Sendable, Equatable, Encodable {
    /// Always `com.apple.IDECoreDataModeler.DataModel` in real files.
    public var type: String?
    /// Always `1.0` in every known file; not a format discriminator.
    public var documentVersion: String?
    /// The Xcode build that saved the file, e.g. `22758` or `14315.12.1`.
    public var lastSavedToolsVersion: String?
    /// The macOS build that saved the file.
    public var systemVersion: String?
    /// `Automatic`, `Xcode 4.3`, … `Xcode 8.0`.
    public var minimumToolsVersion: String?
    /// `Swift` or `Objective-C`; absent in older files.
    public var sourceLanguage: String?
    /// Free text; becomes `NSStoreModelVersionIdentifiers` in store metadata.
    public var userDefinedModelVersionIdentifier: String?
    public var usedWithCloudKit: Bool
    public var usedWithSwiftData: Bool
    /// Xcode 4-era leftovers.
    public var name: String?
    public var macOSVersion: String?
    public var iOSVersion: String?

    public init() {
        usedWithCloudKit = false
        usedWithSwiftData = false
    }
}
