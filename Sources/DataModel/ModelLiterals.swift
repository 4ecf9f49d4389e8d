import Foundation

// The initialisers generated code spells a model with: every field a parameter, every parameter
// defaulted to what the parser produces when the XML leaves it out, so a generated model lists only
// what its file says. Locations default to `SourceLocation.generated`: compiled models have no file.

extension SourceLocation {
    /// The location of every part of a model compiled into Swift: no file, no line.
    public static let generated = SourceLocation(file: "")
}

extension Model {
    /// A model as generated code spells it; see ``Model/withoutSourceDetails``.
    public init(
        _ path: String,
        versionName: String? = nil,
        header: ModelHeader = ModelHeader(),
        entities: [Entity] = [],
        composites: [Composite] = [],
        fetchRequestTemplates: [FetchRequestTemplate] = [],
        configurations: [Configuration] = []
    ) {
        self.init(
            path: path, versionName: versionName, header: header, entities: entities, composites: composites,
            fetchRequestTemplates: fetchRequestTemplates, configurations: configurations, location: .generated)
    }

    /// The model without what only its file knows: source locations, unknown XML, the diagram
    /// layout, and the directories in `path` (it keeps the `.xcdatamodel` name). Generated code
    /// compiles exactly this value, so the two compare equal wherever the model file lies.
    public var withoutSourceDetails: Model {
        let components = path.split(separator: "/").filter { $0 != "contents" }
        return Model(
            components.last.map(String.init) ?? path, versionName: versionName, header: header,
            entities: entities.map(\.withoutSourceDetails), composites: composites.map(\.withoutSourceDetails),
            fetchRequestTemplates: fetchRequestTemplates.map(\.withoutSourceDetails),
            configurations: configurations.map(\.withoutSourceDetails))
    }
}

extension ModelHeader {
    /// A header as generated code spells it.
    public init(
        type: String? = nil, documentVersion: String? = nil, lastSavedToolsVersion: String? = nil,
        systemVersion: String? = nil, minimumToolsVersion: String? = nil, sourceLanguage: String? = nil,
        userDefinedModelVersionIdentifier: String? = nil, usedWithCloudKit: Bool = false,
        usedWithSwiftData: Bool = false, name: String? = nil, macOSVersion: String? = nil, iOSVersion: String? = nil
    ) {
        self.init()
        self.type = type
        self.documentVersion = documentVersion
        self.lastSavedToolsVersion = lastSavedToolsVersion
        self.systemVersion = systemVersion
        self.minimumToolsVersion = minimumToolsVersion
        self.sourceLanguage = sourceLanguage
        self.userDefinedModelVersionIdentifier = userDefinedModelVersionIdentifier
        self.usedWithCloudKit = usedWithCloudKit
        self.usedWithSwiftData = usedWithSwiftData
        self.name = name
        self.macOSVersion = macOSVersion
        self.iOSVersion = iOSVersion
    }
}

extension Entity {
    /// An entity as generated code spells it.
    public init(
        _ name: String,
        className: String? = nil,
        parentName: String? = nil,
        isAbstract: Bool = false,
        codeGenerationType: CodeGenerationType = .manual,
        elementID: String? = nil,
        versionHashModifier: String? = nil,
        isSyncable: Bool = false,
        attributes: [Attribute] = [],
        relationships: [Relationship] = [],
        fetchedProperties: [FetchedProperty] = [],
        fetchIndexes: [FetchIndex] = [],
        compoundIndexes: [CompoundIndex] = [],
        uniquenessConstraints: [UniquenessConstraint] = [],
        userInfo: UserInfo = UserInfo()
    ) {
        self.init(
            name: name, parentName: parentName, isAbstract: isAbstract, attributes: attributes,
            relationships: relationships, location: .generated)
        self.className = className.map(ClassName.init)
        self.codeGenerationType = codeGenerationType
        self.elementID = elementID
        self.versionHashModifier = versionHashModifier
        self.isSyncable = isSyncable
        self.fetchedProperties = fetchedProperties
        self.fetchIndexes = fetchIndexes
        self.compoundIndexes = compoundIndexes
        self.uniquenessConstraints = uniquenessConstraints
        self.userInfo = userInfo
    }

    var withoutSourceDetails: Entity {
        Entity(
            name, className: className?.rawValue, parentName: parentName, isAbstract: isAbstract,
            codeGenerationType: codeGenerationType, elementID: elementID, versionHashModifier: versionHashModifier,
            isSyncable: isSyncable, attributes: attributes.map(\.withoutSourceDetails),
            relationships: relationships.map(\.withoutSourceDetails),
            fetchedProperties: fetchedProperties.map(\.withoutSourceDetails),
            fetchIndexes: fetchIndexes.map(\.withoutSourceDetails),
            compoundIndexes: compoundIndexes.map { CompoundIndex($0.properties.map(\.name)) },
            uniquenessConstraints: uniquenessConstraints.map { UniquenessConstraint($0.properties.map(\.name)) },
            userInfo: userInfo.withoutSourceDetails)
    }
}

extension Attribute {
    /// An attribute as generated code spells it.
    public init(
        _ name: String,
        _ type: AttributeType,
        isOptional: Bool = false,
        isTransient: Bool = false,
        isIndexed: Bool = false,
        isSyncable: Bool = false,
        isDerived: Bool = false,
        derivationExpression: String? = nil,
        defaultValue: String? = nil,
        defaultDateTimeInterval: Double? = nil,
        defaultData: [UInt8]? = nil,
        minValue: String? = nil,
        maxValue: String? = nil,
        minDateTimeInterval: Double? = nil,
        maxDateTimeInterval: Double? = nil,
        regularExpression: String? = nil,
        usesScalarValueType: Bool? = nil,
        valueTransformerName: String? = nil,
        customClassName: String? = nil,
        compositeName: String? = nil,
        allowsExternalBinaryDataStorage: Bool = false,
        isIndexedBySpotlight: Bool = false,
        isStoredInExternalRecord: Bool = false,
        preservesValueInHistoryOnDeletion: Bool = false,
        allowsCloudEncryption: Bool = false,
        elementID: String? = nil,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        userInfo: UserInfo = UserInfo()
    ) {
        self.init(name: name, type: type, isOptional: isOptional, isTransient: isTransient, location: .generated)
        self.isIndexed = isIndexed
        self.isSyncable = isSyncable
        self.isDerived = isDerived
        self.derivationExpression = derivationExpression
        self.defaultValue = defaultValue
        self.defaultDateTimeInterval = defaultDateTimeInterval
        self.defaultData = defaultData.map { Data($0) }
        self.minValue = minValue
        self.maxValue = maxValue
        self.minDateTimeInterval = minDateTimeInterval
        self.maxDateTimeInterval = maxDateTimeInterval
        self.regularExpression = regularExpression
        self.usesScalarValueType = usesScalarValueType
        self.valueTransformerName = valueTransformerName
        self.customClassName = customClassName
        self.compositeName = compositeName
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.isIndexedBySpotlight = isIndexedBySpotlight
        self.isStoredInExternalRecord = isStoredInExternalRecord
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.allowsCloudEncryption = allowsCloudEncryption
        self.elementID = elementID
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
    }

    var withoutSourceDetails: Attribute {
        var copy = self
        copy.userInfo = userInfo.withoutSourceDetails
        copy.unknownXML = nil
        copy.location = .generated
        return copy
    }
}

extension Relationship {
    /// A relationship as generated code spells it.
    public init(
        _ name: String,
        destination: String,
        inverseName: String? = nil,
        inverseEntityName: String? = nil,
        isToMany: Bool = false,
        isOrdered: Bool = false,
        minCount: Int? = nil,
        maxCount: Int? = nil,
        deleteRule: DeleteRule = .nullify,
        isOptional: Bool = false,
        isTransient: Bool = false,
        isIndexed: Bool = false,
        isSyncable: Bool = false,
        elementID: String? = nil,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        userInfo: UserInfo = UserInfo()
    ) {
        self.init(
            name: name, destinationEntityName: destination, inverseName: inverseName,
            inverseEntityName: inverseEntityName, isToMany: isToMany, isOptional: isOptional, location: .generated)
        self.isOrdered = isOrdered
        self.minCount = minCount
        self.maxCount = maxCount
        self.deleteRule = deleteRule
        self.isTransient = isTransient
        self.isIndexed = isIndexed
        self.isSyncable = isSyncable
        self.elementID = elementID
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
    }

    var withoutSourceDetails: Relationship {
        var copy = self
        copy.userInfo = userInfo.withoutSourceDetails
        copy.unknownXML = nil
        copy.location = .generated
        return copy
    }
}

extension FetchedProperty {
    /// A fetched property as generated code spells it.
    public init(
        _ name: String,
        entityName: String,
        predicate: String? = nil,
        sortDescriptors: [FetchSortDescriptor] = [],
        requestName: String = "fetchedPropertyFetchRequest",
        isOptional: Bool = false,
        isSyncable: Bool = false,
        userInfo: UserInfo = UserInfo()
    ) {
        self.init(
            name: name, isOptional: isOptional,
            fetchRequest: Request(name: requestName, entityName: entityName, predicate: predicate, location: .generated),
            location: .generated)
        self.fetchRequest.sortDescriptors = sortDescriptors
        self.isSyncable = isSyncable
        self.userInfo = userInfo
    }

    var withoutSourceDetails: FetchedProperty {
        FetchedProperty(
            name, entityName: fetchRequest.entityName, predicate: fetchRequest.predicate, sortDescriptors: fetchRequest.sortDescriptors,
            requestName: fetchRequest.name, isOptional: isOptional, isSyncable: isSyncable,
            userInfo: userInfo.withoutSourceDetails)
    }
}

extension FetchRequestTemplate {
    /// A fetch request template as generated code spells it.
    public init(
        _ name: String,
        entityName: String,
        predicate: String? = nil,
        sortDescriptors: [FetchSortDescriptor] = [],
        resultType: ResultType = .managedObjects,
        fetchLimit: Int = 0,
        fetchBatchSize: Int = 0,
        includesSubentities: Bool = true,
        includesPropertyValues: Bool = true,
        includesPendingChanges: Bool = true,
        returnsObjectsAsFaults: Bool = true,
        returnsDistinctResults: Bool = false
    ) {
        self.init(name: name, entityName: entityName, predicate: predicate, location: .generated)
        self.sortDescriptors = sortDescriptors
        self.resultType = resultType
        self.fetchLimit = fetchLimit
        self.fetchBatchSize = fetchBatchSize
        self.includesSubentities = includesSubentities
        self.includesPropertyValues = includesPropertyValues
        self.includesPendingChanges = includesPendingChanges
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.returnsDistinctResults = returnsDistinctResults
    }

    var withoutSourceDetails: FetchRequestTemplate {
        var copy = self
        copy.unknownXML = nil
        copy.location = .generated
        return copy
    }
}

extension FetchIndex {
    /// A fetch index as generated code spells it.
    public init(_ name: String, _ elements: [Element]) {
        self.init(name: name, elements: elements, location: .generated)
    }

    var withoutSourceDetails: FetchIndex {
        FetchIndex(name, elements.map { element in
            var copy = element
            copy.location = .generated
            return copy
        })
    }
}

extension FetchIndex.Element {
    /// A fetch index element as generated code spells it: a property, or an expression.
    public init(
        property: String? = nil, expression: String? = nil, expressionType: String? = nil,
        kind: Kind = .binary, order: Order = .ascending
    ) {
        self.init(property: property, kind: kind, order: order, location: .generated)
        self.expression = expression
        self.expressionType = expressionType
    }
}

extension CompoundIndex {
    /// A legacy compound index as generated code spells it.
    public init(_ properties: [String]) {
        self.init(properties: properties.map { NameReference($0, at: .generated) }, location: .generated)
    }
}

extension UniquenessConstraint {
    /// A uniqueness constraint as generated code spells it.
    public init(_ properties: [String]) {
        self.init(properties: properties.map { NameReference($0, at: .generated) }, location: .generated)
    }
}

extension Composite {
    /// A composite as generated code spells it.
    public init(_ name: String, attributes: [Attribute]) {
        self.init(name: name, attributes: attributes, location: .generated)
    }

    var withoutSourceDetails: Composite {
        Composite(name, attributes: attributes.map(\.withoutSourceDetails))
    }
}

extension Configuration {
    /// A configuration as generated code spells it.
    public init(_ name: String, entities: [String]) {
        self.init(name: name, memberEntities: entities.map { NameReference($0, at: .generated) }, location: .generated)
    }

    var withoutSourceDetails: Configuration {
        Configuration(name, entities: memberEntities.map(\.name))
    }
}

extension UserInfo {
    /// A userInfo dictionary as generated code spells it: key and value pairs in model order.
    public init(_ pairs: KeyValuePairs<String, String>) {
        self.init(pairs.map { Entry(key: $0.key, value: $0.value, location: .generated) })
    }

    var withoutSourceDetails: UserInfo {
        UserInfo(entries.map { Entry(key: $0.key, value: $0.value, location: .generated) })
    }
}
