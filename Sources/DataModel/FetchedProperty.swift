/// A `<fetchedProperty>`: a property whose value is the result of a fetch, evaluated lazily.
///
/// Fetched properties have no column and do not enter the version hash.
public struct FetchedProperty: Sendable, Equatable, Encodable {
    /// The `<fetchRequest name="fetchedPropertyFetchRequest" …>` inside a fetched property.
    public struct Request: Sendable, Equatable, Encodable {
        public var name: String
        /// The entity fetched.
        public var entityName: String
        /// The predicate in Core Data's format language; `$FETCH_SOURCE` names the owning object.
        public var predicate: String?
        /// The order of the results; none in a model from XML.
        public var sortDescriptors: [FetchSortDescriptor] = []
        public var unknownXML: UnknownXML?
        public var location: SourceLocation

        public init(name: String, entityName: String, predicate: String?, location: SourceLocation) {
            self.name = name
            self.entityName = entityName
            self.predicate = predicate
            self.location = location
        }
    }

    public var name: String
    public var isOptional: Bool
    public var isSyncable: Bool
    public var fetchRequest: Request
    public var userInfo: UserInfo
    public var unknownXML: UnknownXML?
    public var location: SourceLocation

    public init(name: String, isOptional: Bool = true, fetchRequest: Request, location: SourceLocation) {
        self.name = name
        self.isOptional = isOptional
        isSyncable = false
        self.fetchRequest = fetchRequest
        userInfo = UserInfo()
        self.location = location
    }
}
