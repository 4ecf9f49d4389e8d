import DataModel
import PredicateLanguage

/// Computes the template context of a model: class and member names, Swift types, slots, typed
/// fetch request builders — and a diagnostic for everything it had to rename or leave out.
struct ModelContextBuilder {
    let model: Model
    /// Every version of the model's bundle, oldest first, `model` among them.
    let versions: [Model]
    /// The position of `model` in `versions`.
    let currentVersionIndex: Int
    let modelName: String
    let options: GeneratorOptions
    /// The mapping models found beside the bundle: those that connect two of `versions` are compiled.
    var mappingModels: [MappingModel] = []
    var diagnostics: [Diagnostic] = []
    /// The Swift class of each entity, by entity name.
    private var classNames: [String: String] = [:]
    /// The Swift struct of each composite, by composite name.
    private var compositeNames: [String: String] = [:]
    private var userTypes: [String: UserTypeContext] = [:]

    /// - Parameter versions: every version of the model's bundle, oldest first; `model` is found
    ///   among them by version name and path, as `ManagedObjectModel` finds it, or added at the end.
    init(model: Model, versions: [Model] = [], modelName: String, options: GeneratorOptions) {
        self.model = model
        (self.versions, currentVersionIndex) = Model.bundle(versions, current: model)
        self.modelName = modelName
        self.options = options
    }

    mutating func build() -> ModelContext {
        let isIncremental = options.layout == .incremental
        // The compiled definition depends on the model alone: written on another core meanwhile.
        // The incremental layout splits it among the entities instead, below.
        let definition = isIncremental ? nil : BackgroundValue { [model] in
            ModelLiteral.definition(of: model.withoutSourceDetails, indent: 4, lead: 36)
        }
        let otherVersions = otherVersionContexts()
        assignClassNames()
        assignCompositeNames()
        let typeName = namespaceName()
        let composites = model.composites.map { compositeContext($0) }
        var entities = model.entities.map { entityContext($0) }
        let fetchRequests = model.fetchRequestTemplates.compactMap { fetchRequestContext($0) }
        let imports = Set(["DataStore", "Foundation"] + options.additionalImports).sorted()
        var entitiesEnumName: String?
        var splitDefinition = ""
        if isIncremental {
            let enumName = namespaceMemberTypeName("Entities", holding: "the model's entities", typeName: typeName)
            splitDefinition = self.splitDefinition(into: &entities, enumName: enumName)
            entitiesEnumName = enumName
        }
        return ModelContext(
            modelName: modelName, sourceFileName: sourceFileName, typeName: typeName, access: options.accessLevel.prefix,
            isObservable: options.isObservable,
            imports: imports, modelImports: imports.contains("DataModel") ? [] : ["DataModel"],
            entities: entities, composites: composites, hasComposites: !composites.isEmpty,
            definition: definition?.value ?? splitDefinition, entitiesEnumName: entitiesEnumName,
            versions: versionsContext(others: otherVersions, typeName: typeName),
            mappingModels: mappingModelsContext(typeName: typeName),
            fetchRequests: fetchRequests, hasFetchRequests: !fetchRequests.isEmpty,
            userTypes: userTypes.values.sorted { $0.name < $1.name })
    }

    /// The incremental layout's definition: each entity's part goes to its entity's context, as a
    /// member of `enumName`, and the model's definition names those members.
    private func splitDefinition(into entities: inout [EntityContext], enumName: String) -> String {
        let plain = model.withoutSourceDetails
        var taken: Set<String> = []
        var references: [String] = []
        for (index, entity) in plain.entities.enumerated() {
            let identifier = SwiftIdentifier.lowerCamelMemberName(for: entity.name, avoiding: taken)
            taken.insert(identifier)
            references.append(enumName + "." + identifier)
            entities[index].definitionName = identifier
            // The body of a computed property in the extension.
            entities[index].definition = ModelLiteral.definition(of: entity, indent: 8, lead: 8)
        }
        return ModelLiteral.definition(of: plain, entityReferences: references, indent: 4, lead: 36)
    }

    /// The model's file name as the header names it: `Books.xcdatamodeld`, never a directory.
    var sourceFileName: String {
        let components = model.path.split(separator: "/").map(String.init).filter { $0 != "contents" }
        if let bundle = components.last(where: { $0.hasSuffix(".xcdatamodeld") }) { return bundle }
        return components.last ?? modelName
    }

    // MARK: Names

    private mutating func assignClassNames() {
        var taken: Set<String> = []
        for entity in model.entities {
            let wanted = entity.className.flatMap { $0.name == "NSManagedObject" ? nil : $0.name } ?? entity.name
            var name = SwiftIdentifier.typeName(for: wanted)
            if taken.contains(name) { name = SwiftIdentifier.typeName(for: entity.name) }
            while taken.contains(name) { name += "_" }
            if name != wanted {
                // The validator already warns about reserved names; say only what the name became.
                let isReserved = ReservedNames.typeNames.contains(wanted) || ReservedNames.swiftKeywords.contains(wanted)
                diagnostics.append(Diagnostic(isReserved ? .note : .warning,
                    "class name '\(wanted)' of entity '\(entity.name)' cannot be used in Swift as it is; generated as '\(name)'",
                    at: entity.location))
            }
            taken.insert(name)
            classNames[entity.name] = name
        }
    }

    /// Each composite's struct: its name, with `Value` appended when an entity class has it.
    private mutating func assignCompositeNames() {
        var taken = Set(classNames.values)
        for composite in model.composites {
            var name = SwiftIdentifier.typeName(for: composite.name)
            if taken.contains(name) { name += "Value" }
            while taken.contains(name) { name += "_" }
            if name != composite.name {
                diagnostics.append(.warning(
                    "composite '\(composite.name)' cannot be a Swift type of that name here; generated as '\(name)'", at: composite.location))
            }
            taken.insert(name)
            compositeNames[composite.name] = name
        }
    }

    /// The model's namespace: its name, with `Model` appended when an entity class or composite
    /// struct already has it — said in a warning at that entity or composite, as the name to
    /// write (`ProductsModel.model`) is then not the one a reader guesses.
    private mutating func namespaceName() -> String {
        let name = SwiftIdentifier.typeName(for: modelName)
        let entity = model.entities.first { classNames[$0.name] == name }
        let composite = model.composites.first { compositeNames[$0.name] == name }
        guard let location = entity?.location ?? composite?.location else { return name }
        let owner = entity.map { "entity '\($0.name)'" } ?? composite.map { "composite '\($0.name)'" } ?? ""
        diagnostics.append(.warning(
            "\(owner) generates the type '\(name)', the model's own name; the model's namespace is generated as '\(name)Model' "
                + "(open stores with '\(name)Model.model')", at: location))
        return name + "Model"
    }

    /// A member of the namespace named apart from every type the namespace's code names
    /// unqualified (an entity class `Versions` keeps its name; the enum becomes `Versions_`).
    mutating func namespaceMemberTypeName(_ wanted: String, holding what: String, typeName: String) -> String {
        var taken: Set<String> = ["model", "definition", "FetchRequests", typeName]
        taken.formUnion(classNames.values)
        taken.formUnion(compositeNames.values)
        taken.formUnion(userTypes.keys)
        var name = wanted
        while taken.contains(name) { name += "_" }
        if name != wanted {
            diagnostics.append(.note(
                "\(what) are generated in '\(name)': a type of the model is named '\(wanted)'", at: model.location))
        }
        return name
    }

    // MARK: Versions

    /// The versions other than the current one, their definitions written on other cores meanwhile.
    private func otherVersionContexts() -> [(context: ModelVersionContext, definition: BackgroundValue<String>)] {
        guard versions.count > 1 else { return [] }
        var taken: Set<String> = []
        return versions.enumerated().compactMap { offset, version in
            guard offset != currentVersionIndex else { return nil }
            let name = version.versionName ?? "Version \(offset + 1)"
            let identifier = SwiftIdentifier.lowerCamelMemberName(for: name, avoiding: taken)
            taken.insert(identifier)
            // The first line follows `public static let <identifier> = ` inside the namespace's enum.
            let lead = 8 + "public static let ".count + identifier.count + " = ".count
            let definition = BackgroundValue {
                ModelLiteral.definition(of: version.withoutSourceDetails, indent: 8, lead: lead)
            }
            let context = ModelVersionContext(name: name, fileName: name + ".xcdatamodel", identifier: identifier, definition: "")
            return (context, definition)
        }
    }

    /// The `versions` array and the enum of the other versions, named apart from every type the
    /// namespace refers to (an entity class `Versions` keeps its name; the enum becomes `Versions_`).
    private mutating func versionsContext(
        others: [(context: ModelVersionContext, definition: BackgroundValue<String>)], typeName: String
    ) -> VersionsContext? {
        guard !others.isEmpty else { return nil }
        let propertyName = namespaceMemberTypeName("versions", holding: "the model's versions", typeName: typeName)
        let enumName = namespaceMemberTypeName(
            "Versions", holding: "the model's versions other than the current one", typeName: typeName)
        // `others` is `versions` without the current one, in the same order.
        var references = others.map { SwiftExpression.raw(enumName + "." + $0.context.identifier) }
        references.insert(.raw("definition"), at: currentVersionIndex)
        // The first line follows `public static let <property>: [DataModel.Model] = ` in the namespace.
        let lead = 4 + "public static let ".count + propertyName.count + ": [DataModel.Model] = ".count
        return VersionsContext(
            propertyName: propertyName, enumName: enumName,
            currentName: model.versionName ?? modelName,
            list: SwiftExpression.array(references).lines(indent: 4, lead: lead).joined(separator: "\n"),
            others: others.map { other in
                var context = other.context
                context.definition = other.definition.value
                return context
            })
    }

    // MARK: Composites

    private mutating func compositeContext(_ composite: Composite) -> CompositeContext {
        let typeName = compositeNames[composite.name] ?? composite.name
        // The protocol's requirements keep their names.
        var taken: Set<String> = ["members", "memberNames", "attributeValue", "unsetValue"]
        var members: [CompositeMemberContext] = []
        for attribute in composite.attributes where attribute.isPersistent {
            guard var type = swiftType(of: attribute, owner: composite.name) else { continue }
            if type.storage == .transformable {
                diagnostics.append(.warning(
                    "member '\(attribute.name)' of composite '\(composite.name)' is transformable; generated as its stored Data",
                    at: attribute.location))
                type = SwiftType(name: "Data", storage: .attribute)
            }
            let identifier = SwiftIdentifier.memberName(for: attribute.name, avoiding: taken)
            taken.insert(identifier)
            noteRename(attribute.name, identifier, attribute.location)
            members.append(CompositeMemberContext(
                name: attribute.name, identifier: SwiftIdentifier.escaped(identifier),
                swiftType: type.name + (attribute.isOptional ? "?" : ""),
                defaultLiteral: attribute.isOptional ? "nil" : SwiftType.defaultLiteral(of: attribute, typeName: type.name),
                documentation: documentation(of: attribute, kind: "member")))
        }
        return CompositeContext(
            name: composite.name, typeName: typeName,
            documentation: ["The `\(composite.name)` composite of the \(modelName) model: the value of its composite attributes."],
            members: members)
    }

    // MARK: Entities

    private mutating func entityContext(_ entity: Entity) -> EntityContext {
        let className = classNames[entity.name] ?? entity.name
        let parent = entity.parentName.flatMap { model.entity(named: $0) }
        let inheritedAttributes = parent.map { model.allAttributes(of: $0) } ?? []
        let inheritedRelationships = parent.map { model.allRelationships(of: $0) } ?? []
        let inheritedNames = Set((parent.map { model.allProperties(of: $0) } ?? []).map(\.name))

        var taken: Set<String> = []
        func member(_ name: String) -> String {
            let identifier = SwiftIdentifier.memberName(for: name, avoiding: taken)
            taken.insert(identifier)
            return identifier
        }
        // Inherited members keep the names the superclass gave them.
        if let parent { for property in model.allProperties(of: parent) { _ = member(property.name) } }

        var attributes: [AttributeContext] = []
        var storedAttributes: [StoredAttributeContext] = []
        var storageTaken: Set<String> = []
        for (offset, attribute) in entity.attributes.enumerated() where !inheritedNames.contains(attribute.name) {
            // `_` and a member name: model names never start with `_`, so no member is named alike.
            let storageName = SwiftIdentifier.memberName(for: attribute.name, avoiding: storageTaken)
            storageTaken.insert(storageName)
            let storage = PropertyStorage(attribute.type)
            storedAttributes.append(StoredAttributeContext(
                name: attribute.name, slot: inheritedAttributes.count + offset, storageName: "_" + storageName,
                storageType: storage.type))
            guard let type = swiftType(of: attribute, owner: entity.name) else { continue }
            let identifier = member(attribute.name)
            noteRename(attribute.name, identifier, attribute.location)
            let optional = attribute.isOptional || type.storage == .transformable
            let isDirect = type.storage == .attribute && storage.isDirect(for: type.name)
            let primitiveIdentifier = customAccessor(of: attribute, identifier: identifier, isTransformable: type.storage == .transformable)
            attributes.append(AttributeContext(
                name: attribute.name, identifier: SwiftIdentifier.escaped(identifier),
                swiftType: type.name + (optional ? "?" : ""),
                keyType: type.storage == .transformable
                    ? "TransformableKey<\(className), \(type.name)>"
                    : "AttributeKey<\(className), \(type.name)\(attribute.isOptional ? "?" : "")>",
                slot: inheritedAttributes.count + offset, isReadOnly: attribute.isDerived && attribute.isPersistent,
                documentation: propertyDocumentation(of: attribute), directStorage: isDirect ? "_" + storageName : nil,
                primitiveIdentifier: primitiveIdentifier))
        }

        var relationships: [RelationshipContext] = []
        for (offset, relationship) in entity.relationships.enumerated() where !inheritedNames.contains(relationship.name) {
            guard let destination = classNames[relationship.destinationEntityName] else { continue }
            let identifier = member(relationship.name)
            noteRename(relationship.name, identifier, relationship.location)
            let swiftType = !relationship.isToMany ? "\(destination)?" : relationship.isOrdered ? "[\(destination)]" : "Set<\(destination)>"
            var parameter = destination.prefix(1).lowercased() + destination.dropFirst()
            if parameter == identifier { parameter = "object" }
            relationships.append(RelationshipContext(
                name: relationship.name, identifier: SwiftIdentifier.escaped(identifier), destinationClassName: destination,
                swiftType: swiftType,
                keyType: relationship.isToMany ? "ToManyKey<\(className), \(destination)>" : "ToOneKey<\(className), \(destination)>",
                subscriptLabel: relationship.isToMany && relationship.isOrdered ? "ordered: " : "",
                slot: inheritedRelationships.count + offset, isToMany: relationship.isToMany, isOrdered: relationship.isOrdered,
                capitalizedIdentifier: identifier.prefix(1).uppercased() + identifier.dropFirst(),
                parameterName: SwiftIdentifier.escaped(parameter),
                documentation: documentation(of: relationship, destination: destination)))
        }

        var fetchedProperties: [FetchedPropertyContext] = []
        for property in entity.fetchedProperties where !inheritedNames.contains(property.name) {
            guard let context = fetchedPropertyContext(property, identifier: member(property.name)) else { continue }
            fetchedProperties.append(context)
        }

        return EntityContext(
            entityName: entity.name, className: className,
            superclassName: parent.flatMap { classNames[$0.name] } ?? "ManagedObject",
            finalKeyword: model.subentities(of: entity).isEmpty ? "final " : "",
            isAbstract: entity.isAbstract,
            documentation: documentation(entity.userInfo)
                ?? (entity.isAbstract ? ["An abstract entity: its objects are those of its subentities."] : nil),
            // The incremental layout's names are the build plugin's, which knows only the entity names.
            fileName: options.layout == .incremental ? "\(modelName)+\(entity.name).swift" : "\(className).swift",
            attributes: attributes, relationships: relationships,
            toManyRelationships: relationships.filter(\.isToMany), fetchedProperties: fetchedProperties,
            storedAttributes: storedAttributes, hasStoredAttributes: !storedAttributes.isEmpty,
            inheritsStoredAttributes: !inheritedAttributes.isEmpty, definitionName: nil, definition: nil)
    }

    /// The name of the primitive property (`primitiveTitle`) of an attribute whose userInfo
    /// `datamodel.accessor` is `custom`: the class leaves the property itself to the app's code.
    private mutating func customAccessor(of attribute: Attribute, identifier: String, isTransformable: Bool) -> String? {
        guard let value = attribute.userInfo[Self.accessorKey].map({ String($0.trimmingSpaces) }) else { return nil }
        guard value == "custom" else {
            diagnostics.append(.warning(
                "\(Self.accessorKey) of attribute '\(attribute.name)' is '\(value)'; the one value it takes is 'custom'", at: attribute.location))
            return nil
        }
        guard !isTransformable, !attribute.isDerived else {
            diagnostics.append(.warning(
                "attribute '\(attribute.name)' is \(isTransformable ? "transformable" : "derived"): it keeps its generated property", at: attribute.location))
            return nil
        }
        return "primitive" + identifier.prefix(1).uppercased() + identifier.dropFirst()
    }

    /// The userInfo key that asks for a custom accessor.
    static let accessorKey = "datamodel.accessor"

    private mutating func noteRename(_ name: String, _ identifier: String, _ location: SourceLocation) {
        guard identifier != name, SwiftIdentifier.escaped(identifier) != "`\(name)`" else { return }
        let isReserved = ReservedNames.clash(forPropertyNamed: name) != nil
        diagnostics.append(Diagnostic(isReserved ? .note : .warning,
            "property '\(name)' clashes with a Swift or ManagedObject name; generated as '\(identifier)'", at: location))
    }

    // MARK: Types

    /// The Swift type of an attribute's property, or nil (with a warning) when it gets none.
    private mutating func swiftType(of attribute: Attribute, owner: String) -> SwiftType? {
        if let (userType, key) = SwiftType.userType(of: attribute) {
            if SwiftType.isValidSwiftTypeName(userType), SwiftType.canHoldValues(userType) {
                if !SwiftType.codableNames.contains(userType), !SwiftType.isCodableComposition(userType) {
                    userTypes[userType] = UserTypeContext(
                        name: userType, attributeType: attribute.type.rawValue, isTransformable: attribute.type == .transformable)
                }
                return SwiftType(name: userType, storage: attribute.type == .transformable ? .transformable : .attribute)
            }
            diagnostics.append(.warning(
                "userInfo '\(key)' of attribute '\(attribute.name)' of '\(owner)' is '\(userType)', "
                    + "which is not a Swift type a stored value can have; ignored", at: attribute.location))
        }
        switch attribute.type {
        case .transformable:
            if let custom = attribute.customClassName, SwiftType.isCodableComposition(custom) {
                return SwiftType(name: custom, storage: .transformable)
            }
            diagnostics.append(.warning(
                "transformable attribute '\(attribute.name)' of '\(owner)' has no Codable Swift type"
                    + (attribute.customClassName.map { " ('\($0)' is not one)" } ?? "")
                    + "; generated as its stored Data. Name a Codable type with the userInfo key 'datamodel.type'",
                at: attribute.location))
            return SwiftType(name: "Data", storage: .attribute)
        case .composite:
            if let name = attribute.compositeName.flatMap({ compositeNames[$0] }) { return SwiftType(name: name, storage: .attribute) }
            return nil
        case .objectID:
            // The store keeps a bare key, without the entity an `ObjectID` needs.
            diagnostics.append(.warning(
                "attribute '\(attribute.name)' of '\(owner)' has type Object ID, whose stored key names no entity, so it has no "
                    + "typed property; read it with value(forKey:)", at: attribute.location))
            return nil
        case .undefined:
            diagnostics.append(.warning(
                "attribute '\(attribute.name)' of '\(owner)' has type Undefined, which says nothing of its Swift type; name an "
                    + "AttributeStorable type with the userInfo key 'datamodel.type' to give it a property", at: attribute.location))
            return nil
        default:
            if !attribute.isOptional, !attribute.hasDefaultValue, !attribute.isTransient {
                diagnostics.append(.note(
                    "required attribute '\(attribute.name)' of '\(owner)' has no default value: it reads as "
                        + "an empty value until set, and saving an object without it fails validation",
                    at: attribute.location))
            }
            return SwiftType.standard(for: attribute.type).map { SwiftType(name: $0, storage: .attribute) }
        }
    }

    // MARK: Fetches

    private mutating func fetchedPropertyContext(_ property: FetchedProperty, identifier: String) -> FetchedPropertyContext? {
        guard let destination = classNames[property.fetchRequest.entityName] else { return nil }
        var predicateExpression = ".constant(true)"
        if let format = property.fetchRequest.predicate {
            guard let predicate = ModelPredicates.parse(format, of: property, into: &diagnostics) else { return nil }
            guard let expression = try? PredicateLiteral().expression(for: predicate) else { return nil }
            predicateExpression = expression.lines(indent: 8, lead: 40).joined(separator: "\n")
        }
        return FetchedPropertyContext(
            name: property.name, identifier: SwiftIdentifier.escaped(identifier), destinationClassName: destination,
            predicateExpression: predicateExpression,
            documentation: documentation(property.userInfo)
                ?? ["The `\(property.name)` fetched property: a request for the `\(destination)` objects it fetches"
                    + (property.fetchRequest.predicate.map { ", `\($0)`." } ?? ".")])
    }

    private mutating func fetchRequestContext(_ template: FetchRequestTemplate) -> FetchRequestContext? {
        guard let entity = model.entity(named: template.entityName), let resultClass = classNames[entity.name] else { return nil }
        var parameters: [ParameterContext] = []
        var predicateExpression: String?
        if let format = template.predicate {
            guard let predicate = ModelPredicates.parse(format, of: template, into: &diagnostics) else { return nil }
            var taken: Set<String> = []
            for (variable, type) in VariableTyping(model: model, classNames: classNames).parameters(of: predicate, entity: entity) {
                var identifier = SwiftIdentifier.sanitized(variable)
                while taken.contains(identifier) { identifier += "_" }
                taken.insert(identifier)
                parameters.append(ParameterContext(variable: variable, identifier: SwiftIdentifier.escaped(identifier), swiftType: type))
            }
            let literal = PredicateLiteral(replacements: Dictionary(uniqueKeysWithValues: parameters.map {
                ($0.variable, ".constant(\($0.identifier).predicateValue)")
            }))
            guard let expression = try? literal.expression(for: predicate) else {
                diagnostics.append(.warning("fetch request '\(template.name)' has a constant no Swift literal spells; skipped", at: template.location))
                return nil
            }
            predicateExpression = expression.lines(indent: 12, lead: 32).joined(separator: "\n")
        }
        var settings: [String] = []
        if template.fetchLimit > 0 { settings.append("request.fetchLimit = \(template.fetchLimit)") }
        if template.fetchBatchSize > 0 { settings.append("request.fetchBatchSize = \(template.fetchBatchSize)") }
        if !template.includesSubentities { settings.append("request.includesSubentities = false") }
        if !template.includesPendingChanges { settings.append("request.includesPendingChanges = false") }
        if !template.includesPropertyValues { settings.append("request.includesPropertyValues = false") }
        if !template.returnsObjectsAsFaults { settings.append("request.returnsObjectsAsFaults = false") }
        if template.returnsDistinctResults { settings.append("request.returnsDistinctResults = true") }
        var documentation = ["The `\(template.name)` fetch request of the model"
            + (template.predicate.map { ": `\($0)`." } ?? ": every `\(entity.name)`.")]
        switch template.resultType {
        case .managedObjects: break
        case .managedObjectIDs: documentation.append("The model asks for object IDs: fetch it with `fetchObjectIDs(_:)`.")
        case .count: documentation.append("The model asks for a count: fetch it with `count(for:)`.")
        case .dictionaries:
            documentation.append("The model asks for dictionaries: fetch it with `fetchDictionaries(_:)`, which returns every attribute unless `propertiesToFetch` names some.")
        }
        var identifier = SwiftIdentifier.sanitized(template.name)
        if ReservedNames.typeNames.contains(identifier) {
            identifier += "_"
            diagnostics.append(.warning(
                "fetch request '\(template.name)' has the name of a type the generated code uses; its builder is '\(identifier)'",
                at: template.location))
        }
        return FetchRequestContext(
            name: template.name, identifier: SwiftIdentifier.escaped(identifier),
            resultClassName: resultClass, parameters: parameters, predicateExpression: predicateExpression,
            settings: settings, documentation: documentation)
    }

    // MARK: Documentation

    /// The `documentation` userInfo entry as doc-comment lines, if the model has one.
    private func documentation(_ userInfo: UserInfo) -> [String]? {
        userInfo["documentation"].map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    private func documentation(of attribute: Attribute, kind: String = "attribute") -> [String] {
        if let lines = documentation(attribute.userInfo) { return lines }
        var facts = [attribute.type == .composite ? attribute.compositeName ?? "Composite" : attribute.type.rawValue]
        facts.append(attribute.isOptional ? "optional" : "required")
        if attribute.isTransient { facts.append("transient") }
        if let value = attribute.defaultValue { facts.append("default \(value.isEmpty ? "empty" : "`\(value)`")") }
        if let bytes = attribute.defaultData { facts.append("default of \(bytes.count) bytes") }
        var lines = ["The `\(attribute.name)` \(kind): \(facts.joined(separator: ", "))."]
        if attribute.isDerived && attribute.isPersistent {
            lines.append("Derived from `\(attribute.derivationExpression ?? "")`: the store computes it when saving.")
        }
        return lines
    }

    /// A generated attribute property's documentation: the model's, or what its declaration does
    /// not say (transient, derived, a default other than the type's zero), or none.
    private func propertyDocumentation(of attribute: Attribute) -> [String] {
        if let lines = documentation(attribute.userInfo) { return lines }
        var facts: [String] = []
        if attribute.isTransient { facts.append("Transient: kept in memory, never saved.") }
        if attribute.isDerived && attribute.isPersistent {
            facts.append("Derived from `\(attribute.derivationExpression ?? "")`: the store computes it when saving.")
        }
        if let value = attribute.defaultValue, !["", "0", "0.0", "NO"].contains(value) { facts.append("Defaults to `\(value)`.") }
        if let bytes = attribute.defaultData { facts.append("Defaults to the model's \(bytes.count) bytes.") }
        return facts.isEmpty ? [] : [facts.joined(separator: " ")]
    }

    /// A relationship property's documentation: the model's, or its inverse and delete rule.
    private func documentation(of relationship: Relationship, destination: String) -> [String] {
        if let lines = documentation(relationship.userInfo) { return lines }
        let inverse = relationship.inverseName.map { "Inverse `\(destination).\($0)`" } ?? "No inverse"
        return ["\(inverse); delete rule \(relationship.deleteRule.rawValue)."]
    }
}
