/// A model-level `<fetchRequest>`: a named fetch-request template, optionally with `$VARIABLE`s
/// in its predicate.
public struct FetchRequestTemplate: Sendable, Equatable, Encodable {
    /// What a fetch returns (`resultType` in the XML).
    public enum ResultType: Int, Sendable, Equatable, CaseIterable, Encodable {
        case managedObjects = 0
        case managedObjectIDs = 1
        case dictionaries = 2
        case count = 4
    }

    public var name: String
    public var entityName: String
    public var predicate: String?
    /// The order of the results; none in a model from XML.
    public var sortDescriptors: [FetchSortDescriptor] = []
    public var resultType: ResultType
    /// 0 means no limit.
    public var fetchLimit: Int
    /// 0 means no batching.
    public var fetchBatchSize: Int
    /// `includeSubentities` in the XML.
    public var includesSubentities: Bool
    /// `includePropertyValues` in the XML.
    public var includesPropertyValues: Bool
    public var includesPendingChanges: Bool
    /// `returnObjectsAsFaults` in the XML (sic).
    public var returnsObjectsAsFaults: Bool
    /// `returnDistinctResults` in the XML.
    public var returnsDistinctResults: Bool
    public var unknownXML: UnknownXML?
    public var location: SourceLocation

    /// A template with Core Data's defaults: objects, no limit, subentities and pending changes included.
    public init(name: String, entityName: String, predicate: String? = nil, location: SourceLocation) {
        self.name = name
        self.entityName = entityName
        self.predicate = predicate
        resultType = .managedObjects
        fetchLimit = 0
        fetchBatchSize = 0
        includesSubentities = true
        includesPropertyValues = true
        includesPendingChanges = true
        returnsObjectsAsFaults = true
        returnsDistinctResults = false
        self.location = location
    }
}
