/// What templates see: every fact about the model a template needs, computed once, in model order.
///
/// Templates read these by property name (`{{#entities}}{{className}}{{/entities}}`); `datamodel-gen
/// dump-context MODEL` prints the whole value as JSON for template authors. Arrays keep the model's
/// order; names are already valid Swift identifiers.
public struct ModelContext: Sendable, Encodable {
    /// The model's file name without extension (`Books`).
    public var modelName: String
    /// The model file as the header names it (`Books.xcdatamodeld`): a name, never a path.
    public var sourceFileName: String
    /// The Swift namespace of the model (`Books`, or `BooksModel` when `Books` is taken).
    public var typeName: String
    /// `public ` / `package ` / empty (internal): put before every declaration.
    public var access: String
    /// Whether the classes are observable (the default); else each overrides `isObservable`.
    public var isObservable: Bool
    /// Modules to import, sorted.
    public var imports: [String]
    /// Modules the model file imports besides `imports` (it spells the model with `DataModel` values).
    public var modelImports: [String]
    public var entities: [EntityContext]
    /// The model's composites, each a Swift struct.
    public var composites: [CompositeContext]
    public var hasComposites: Bool
    /// The model compiled into Swift values (`Model(…)`), its lines indented for the model file.
    /// For a bundle of several versions, this is the current one. In the incremental layout, its
    /// entities are members of `entitiesEnumName`, each defined in its entity's file.
    public var definition: String
    /// In the incremental layout, the enum of the namespace whose members are the entities of
    /// `definition` (`Entities`, or `Entities_` when a type of the model has that name).
    public var entitiesEnumName: String?
    /// The bundle's versions when it has more than one; absent for a single version.
    public var versions: VersionsContext?
    /// The mapping models that connect the bundle's versions, when it has any.
    public var mappingModels: MappingModelsContext? = nil
    public var fetchRequests: [FetchRequestContext]
    public var hasFetchRequests: Bool
    /// Types the generated code names that the app declares (from userInfo), sorted by name.
    public var userTypes: [UserTypeContext]
}

/// The versions of a bundle of several: the array of every version the runtime migrates from,
/// and an enum with the definition of each version other than the current one.
public struct VersionsContext: Sendable, Encodable {
    /// The property holding every version: `versions`.
    public var propertyName: String
    /// The enum holding the versions other than the current one: `Versions` (`Versions_` when a
    /// type of the model, such as an entity class, has that name).
    public var enumName: String
    /// The current version's name (`Everything 2`): the one `definition` holds.
    public var currentName: String
    /// Every version, oldest first, as Swift: `[Versions.everything1, definition]`, its lines
    /// indented for the model file.
    public var list: String
    /// The versions other than the current one, oldest first.
    public var others: [ModelVersionContext]
}

/// A version of the bundle other than the current one, compiled into Swift values.
public struct ModelVersionContext: Sendable, Encodable {
    /// The version's name: `Everything 1`.
    public var name: String
    /// Its folder in the bundle: `Everything 1.xcdatamodel`.
    public var fileName: String
    /// Its member of the versions enum: `everything1`.
    public var identifier: String
    /// The version compiled into Swift values (`Model(…)`), its lines indented for the enum.
    public var definition: String
}

/// A type named in userInfo that the app must declare: `AttributeStorable` for a stored
/// attribute, `Codable` for a transformable one.
public struct UserTypeContext: Sendable, Encodable, Equatable {
    public var name: String
    /// The attribute type it stands for (`Integer 16`, `Transformable`).
    public var attributeType: String
    public var isTransformable: Bool
}

/// A composite: the `CompositeAttribute` struct that holds its values.
public struct CompositeContext: Sendable, Encodable {
    public var name: String
    public var typeName: String
    public var documentation: [String]
    public var members: [CompositeMemberContext]
}

/// A member of a composite: a stored property of its struct.
public struct CompositeMemberContext: Sendable, Encodable {
    public var name: String
    public var identifier: String
    /// Optional when the member is (`Int16`, `String?`, `Coordinates?`).
    public var swiftType: String
    /// The initializer's default for the member (`nil`, the model's default), or nil for none.
    public var defaultLiteral: String?
    public var documentation: [String]
}

/// One entity: its class and the properties the class declares itself.
public struct EntityContext: Sendable, Encodable {
    public var entityName: String
    public var className: String
    /// The superentity's class, or `ManagedObject`.
    public var superclassName: String
    /// `final ` when no entity inherits from this one, else empty.
    public var finalKeyword: String
    public var isAbstract: Bool
    /// The entity's `documentation` userInfo; for an abstract entity without one, a sentence saying so.
    public var documentation: [String]?
    /// The entity's file: `Book.swift`, or `Books+Book.swift` in the incremental layout.
    public var fileName: String
    /// The entity's own attributes that have a Swift property.
    public var attributes: [AttributeContext]
    /// The entity's own relationships.
    public var relationships: [RelationshipContext]
    public var toManyRelationships: [RelationshipContext]
    public var fetchedProperties: [FetchedPropertyContext]
    /// The entity's own attributes, each in a stored property.
    public var storedAttributes: [StoredAttributeContext]
    public var hasStoredAttributes: Bool
    /// Whether the superentity has attributes, which its class's stored properties hold: the
    /// class's walk over its own properties visits those first.
    public var inheritsStoredAttributes: Bool
    /// In the incremental layout, the entity's member of the entities enum (`book`)…
    public var definitionName: String?
    /// …and its value: the entity compiled into Swift values (`DataModel.Entity(…)`).
    public var definition: String?
}

/// An attribute with a generated property.
public struct AttributeContext: Sendable, Encodable {
    /// The attribute's name in the model (and in the store).
    public var name: String
    /// The Swift member name (escaped when it clashes: `description_`, or `default` in backticks).
    public var identifier: String
    /// The property's Swift type, optional when the attribute is (`Double`, `String?`).
    public var swiftType: String
    /// The key's type: `AttributeKey<Book, Double>` or `TransformableKey<Book, [String: String]>`.
    public var keyType: String
    /// The slot of the attribute in its entity (inherited attributes first): the runtime's fast path.
    public var slot: Int
    /// Whether the store computes the value (a derived attribute), so the property has no setter.
    public var isReadOnly: Bool
    public var documentation: [String]
    /// The stored property the property reads and writes itself (`_price`), when its type converts
    /// plainly to the stored one (`PropertyStorable`); `nil` for types that go through typed access alone.
    public var directStorage: String?
    /// For an attribute whose accessor the app writes (userInfo `datamodel.accessor` = `custom`),
    /// the primitive property the class declares instead (`primitiveTitle`).
    public var primitiveIdentifier: String?
}

/// An attribute the class keeps in a stored property: every attribute the entity declares itself,
/// those without a generated property included.
public struct StoredAttributeContext: Sendable, Encodable {
    public var name: String
    public var slot: Int
    /// The stored property: `_price`.
    public var storageName: String
    /// Its type, the optional payload of the attribute type's value: `String?`, `AttributeValue?`
    /// for a composite, and for `Int64`, `Double` and `Date`, which it keeps in their own width,
    /// `CompactOptional<Double> = nil` (with the first value that type needs, so that a template
    /// declares every stored property alike).
    public var storageType: String
}

/// A relationship with a generated property.
public struct RelationshipContext: Sendable, Encodable {
    public var name: String
    public var identifier: String
    /// The destination entity's class.
    public var destinationClassName: String
    /// `Author?`, `Set<Tag>` or `[Chapter]`.
    public var swiftType: String
    /// `ToOneKey<Book, Author>` or `ToManyKey<Book, Tag>`.
    public var keyType: String
    /// `ordered: ` for ordered to-many relationships (the subscript label), else empty.
    public var subscriptLabel: String
    public var slot: Int
    public var isToMany: Bool
    public var isOrdered: Bool
    /// The capitalised identifier for mutator names: `addToChapters`.
    public var capitalizedIdentifier: String
    /// The mutators' parameter name: `chapter`.
    public var parameterName: String
    public var documentation: [String]
}

/// A fetched property: a typed request for the objects it fetches.
public struct FetchedPropertyContext: Sendable, Encodable {
    public var name: String
    public var identifier: String
    public var destinationClassName: String
    /// The predicate as a Swift expression; `$FETCH_SOURCE` stays a variable for the object to fill.
    public var predicateExpression: String
    public var documentation: [String]
}

/// A model-level fetch request template: a typed builder that returns a request.
public struct FetchRequestContext: Sendable, Encodable {
    public var name: String
    public var identifier: String
    public var resultClassName: String
    /// One parameter per `$VARIABLE`, in order of first use.
    public var parameters: [ParameterContext]
    /// The predicate with the parameters in place of the variables, or nil.
    public var predicateExpression: String?
    /// `request.fetchLimit = 50`-style lines for the template's non-default settings.
    public var settings: [String]
    public var documentation: [String]
}

/// One typed parameter of a fetch request builder.
public struct ParameterContext: Sendable, Encodable {
    /// The `$VARIABLE` name.
    public var variable: String
    public var identifier: String
    public var swiftType: String
}
