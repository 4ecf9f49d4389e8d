import Mustache

// Templates look values up by name. swift-mustache finds a name through `Mirror` by default, which
// scans every field on every lookup and dominated rendering time (about 65% of generating a
// 1,000-entity model); a table of key paths per context type answers in one hash lookup.
// `TemplateTests` checks each table lists exactly the type's stored properties.

/// A template context whose fields are found through a table of key paths.
protocol TemplateFields: MustacheParent {
    static var fields: [String: PartialKeyPath<Self> & Sendable] { get }
}

extension TemplateFields {
    public func child(named name: String) -> Any? {
        guard let field = Self.fields[name] else { return nil }
        let value = self[keyPath: field]
        // An optional field that is nil must read as missing, as Mirror lookups make it.
        if let optional = value as? any OptionalField { return optional.wrappedValue }
        return value
    }
}

private protocol OptionalField {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalField {
    var wrappedValue: Any? { map { $0 } }
}

extension ModelContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "modelName": \.modelName, "sourceFileName": \.sourceFileName, "typeName": \.typeName, "access": \.access,
        "isObservable": \.isObservable, "imports": \.imports, "modelImports": \.modelImports, "entities": \.entities, "composites": \.composites,
        "hasComposites": \.hasComposites, "definition": \.definition, "entitiesEnumName": \.entitiesEnumName,
        "versions": \.versions, "mappingModels": \.mappingModels,
        "fetchRequests": \.fetchRequests, "hasFetchRequests": \.hasFetchRequests, "userTypes": \.userTypes,
    ]
}

extension VersionsContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "propertyName": \.propertyName, "enumName": \.enumName, "currentName": \.currentName, "list": \.list,
        "others": \.others,
    ]
}

extension MappingModelsContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "propertyName": \.propertyName, "definition": \.definition, "enumName": \.enumName, "policyMappings": \.policyMappings,
        "hasPolicies": \.hasPolicies,
    ]
}

extension PolicyMappingContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "name": \.name, "nameLiteral": \.nameLiteral, "identifier": \.identifier, "mappingFileName": \.mappingFileName,
        "policyClassName": \.policyClassName,
        "sourceEntity": \.sourceEntity, "sourceVersion": \.sourceVersion, "destinationEntity": \.destinationEntity,
        "destinationVersion": \.destinationVersion, "sourceKeys": \.sourceKeys, "destinationKeys": \.destinationKeys,
    ]
}

extension MappingKeyContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "name": \.name, "identifier": \.identifier, "keyType": \.keyType, "slot": \.slot,
    ]
}

extension ModelVersionContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "name": \.name, "fileName": \.fileName, "identifier": \.identifier, "definition": \.definition,
    ]
}

extension UserTypeContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "name": \.name, "attributeType": \.attributeType, "isTransformable": \.isTransformable,
    ]
}

extension EntityContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "entityName": \.entityName, "className": \.className, "superclassName": \.superclassName,
        "finalKeyword": \.finalKeyword, "isAbstract": \.isAbstract, "documentation": \.documentation,
        "fileName": \.fileName, "attributes": \.attributes, "relationships": \.relationships,
        "toManyRelationships": \.toManyRelationships, "fetchedProperties": \.fetchedProperties,
        "storedAttributes": \.storedAttributes, "hasStoredAttributes": \.hasStoredAttributes,
        "inheritsStoredAttributes": \.inheritsStoredAttributes, "definitionName": \.definitionName,
        "definition": \.definition,
    ]
}

extension AttributeContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "name": \.name, "identifier": \.identifier, "swiftType": \.swiftType, "keyType": \.keyType, "slot": \.slot,
        "isReadOnly": \.isReadOnly, "documentation": \.documentation, "directStorage": \.directStorage,
        "primitiveIdentifier": \.primitiveIdentifier,
    ]
}

extension StoredAttributeContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "name": \.name, "slot": \.slot, "storageName": \.storageName, "storageType": \.storageType,
    ]
}

extension RelationshipContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "name": \.name, "identifier": \.identifier, "destinationClassName": \.destinationClassName,
        "swiftType": \.swiftType, "keyType": \.keyType, "subscriptLabel": \.subscriptLabel, "slot": \.slot,
        "isToMany": \.isToMany, "isOrdered": \.isOrdered, "capitalizedIdentifier": \.capitalizedIdentifier,
        "parameterName": \.parameterName, "documentation": \.documentation,
    ]
}

extension FetchedPropertyContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "name": \.name, "identifier": \.identifier, "destinationClassName": \.destinationClassName,
        "predicateExpression": \.predicateExpression, "documentation": \.documentation,
    ]
}

extension FetchRequestContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "name": \.name, "identifier": \.identifier, "resultClassName": \.resultClassName, "parameters": \.parameters,
        "predicateExpression": \.predicateExpression, "settings": \.settings, "documentation": \.documentation,
    ]
}

extension ParameterContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = ["variable": \.variable, "identifier": \.identifier, "swiftType": \.swiftType]
}

extension HeaderTemplateContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = ["sourceFileName": \.sourceFileName, "imports": \.imports]
}

extension EntityTemplateContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "access": \.access, "isObservable": \.isObservable, "modelName": \.modelName, "typeName": \.typeName,
        "entitiesEnumName": \.entitiesEnumName, "sourceFileName": \.sourceFileName, "entity": \.entity,
    ]
}

/// The stored-property names of each context type against its table, for `TemplateTests`.
package func templateFieldMismatches() -> [String] {
    func check<T: TemplateFields>(_ sample: T) -> [String] {
        let stored = Set(Mirror(reflecting: sample).children.compactMap(\.label))
        let listed = Set(T.fields.keys)
        return stored == listed ? [] : ["\(T.self): stored \(stored.sorted()), listed \(listed.sorted())"]
    }
    let entity = EntityContext(
        entityName: "", className: "", superclassName: "", finalKeyword: "", isAbstract: false, documentation: [],
        fileName: "", attributes: [], relationships: [], toManyRelationships: [], fetchedProperties: [],
        storedAttributes: [], hasStoredAttributes: false, inheritsStoredAttributes: false, definitionName: nil,
        definition: nil)
    let model = ModelContext(
        modelName: "", sourceFileName: "", typeName: "", access: "", isObservable: true, imports: [], modelImports: [], entities: [],
        composites: [], hasComposites: false, definition: "", entitiesEnumName: nil, versions: nil, fetchRequests: [],
        hasFetchRequests: false,
        userTypes: [])
    return check(model) + check(entity) + check(EntityTemplateContext(model: model, entity: entity))
        + check(VersionsContext(propertyName: "", enumName: "", currentName: "", list: "", others: []))
        + check(ModelVersionContext(name: "", fileName: "", identifier: "", definition: ""))
        + check(MappingModelsContext(propertyName: "", definition: "", enumName: "", policyMappings: [], hasPolicies: false))
        + check(PolicyMappingContext(
            name: "", nameLiteral: "", identifier: "", mappingFileName: "", policyClassName: "", sourceEntity: "", sourceVersion: "", destinationEntity: "",
            destinationVersion: "", sourceKeys: [], destinationKeys: []))
        + check(MappingKeyContext(name: "", identifier: "", keyType: "", slot: 0))
        + check(UserTypeContext(name: "", attributeType: "", isTransformable: false))
        + check(AttributeContext(name: "", identifier: "", swiftType: "", keyType: "", slot: 0, isReadOnly: false, documentation: []))
        + check(StoredAttributeContext(name: "", slot: 0, storageName: "", storageType: ""))
        + check(RelationshipContext(
            name: "", identifier: "", destinationClassName: "", swiftType: "", keyType: "", subscriptLabel: "", slot: 0,
            isToMany: false, isOrdered: false, capitalizedIdentifier: "", parameterName: "", documentation: []))
        + check(FetchedPropertyContext(name: "", identifier: "", destinationClassName: "", predicateExpression: "", documentation: []))
        + check(FetchRequestContext(
            name: "", identifier: "", resultClassName: "", parameters: [], predicateExpression: nil, settings: [],
            documentation: []))
        + check(ParameterContext(variable: "", identifier: "", swiftType: ""))
        + check(CompositeContext(name: "", typeName: "", documentation: [], members: []))
        + check(CompositeMemberContext(name: "", identifier: "", swiftType: "", defaultLiteral: nil, documentation: []))
        + check(HeaderTemplateContext(sourceFileName: "", imports: []))
}

extension CompositeContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "name": \.name, "typeName": \.typeName, "documentation": \.documentation, "members": \.members,
    ]
}

extension CompositeMemberContext: TemplateFields {
    static let fields: [String: PartialKeyPath<Self> & Sendable] = [
        "name": \.name, "identifier": \.identifier, "swiftType": \.swiftType, "defaultLiteral": \.defaultLiteral,
        "documentation": \.documentation,
    ]
}
