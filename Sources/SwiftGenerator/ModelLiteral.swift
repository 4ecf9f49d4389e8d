import DataModel
import Foundation

/// A model spelled as Swift values (`DataModel.Model(…)`, `DataModel.Entity(…)`, …), through the
/// literal initialisers of `DataModel`; the types are qualified because an entity may be called
/// `Attribute` or `Entity`. Every argument equal to the initialiser's default is left out; the
/// defaults are read from default-built values, so they cannot drift from the initialisers.
enum ModelLiteral {
    /// The model as Swift source: a closure that builds it entity by entity, each entity a
    /// statement of its own, so that the compiler checks one entity at a time — checked as one
    /// expression, a large model took most of its module's compile time. Lines after the first
    /// are indented for a declaration at `indent` columns; the first follows `lead` columns.
    static func definition(of model: Model, indent: Int, lead: Int) -> String {
        guard !model.entities.isEmpty else { return expression(for: model).lines(indent: indent, lead: lead).joined(separator: "\n") }
        let inner = String(repeating: " ", count: indent + 4)
        func statement(_ head: String, _ expression: SwiftExpression, _ tail: String = "") -> [String] {
            var lines = expression.lines(indent: indent + 4, lead: indent + 4 + head.count)
            lines[0] = inner + head + lines[0]
            lines[lines.count - 1] += tail
            return lines
        }
        var lines = ["{ () -> DataModel.Model in", inner + "var entities: [DataModel.Entity] = []"]
        for entity in model.entities { lines += statement("entities.append(", expression(for: entity), ")") }
        lines += statement("return ", expression(for: model, entities: .raw("entities")))
        lines.append(String(repeating: " ", count: indent) + "}()")
        return lines.joined(separator: "\n")
    }

    /// The model as Swift source whose entities are `references` (`Entities.book`, defined
    /// elsewhere), indented as `definition(of:indent:lead:)` indents.
    static func definition(of model: Model, entityReferences references: [String], indent: Int, lead: Int) -> String {
        expression(for: model, entities: .array(references.map(SwiftExpression.raw))).lines(indent: indent, lead: lead)
            .joined(separator: "\n")
    }

    /// An entity as Swift source (`DataModel.Entity(…)`), indented as `definition(of:indent:lead:)` indents.
    static func definition(of entity: Entity, indent: Int, lead: Int) -> String {
        expression(for: entity).lines(indent: indent, lead: lead).joined(separator: "\n")
    }

    /// The model as one expression; `entities` stands for its entities when given.
    static func expression(for model: Model, entities: SwiftExpression? = nil) -> SwiftExpression {
        let blank = Model("")
        return call("DataModel.Model", [
            (nil, .string(model.path)),
            ("versionName", optional(model.versionName)),
            ("header", model.header == blank.header ? nil : expression(for: model.header)),
            ("entities", entities ?? list(model.entities.map(expression(for:)))),
            ("composites", list(model.composites.map(expression(for:)))),
            ("fetchRequestTemplates", list(model.fetchRequestTemplates.map(expression(for:)))),
            ("configurations", list(model.configurations.map {
                call("DataModel.Configuration", [(nil, .string($0.name)), ("entities", .array($0.memberEntities.map { .string($0.name) }))])
            })),
        ])
    }

    private static func expression(for header: ModelHeader) -> SwiftExpression {
        let blank = ModelHeader()
        return call("DataModel.ModelHeader", [
            ("type", optional(header.type)),
            ("documentVersion", optional(header.documentVersion)),
            ("lastSavedToolsVersion", optional(header.lastSavedToolsVersion)),
            ("systemVersion", optional(header.systemVersion)),
            ("minimumToolsVersion", optional(header.minimumToolsVersion)),
            ("sourceLanguage", optional(header.sourceLanguage)),
            ("userDefinedModelVersionIdentifier", optional(header.userDefinedModelVersionIdentifier)),
            ("usedWithCloudKit", flag(header.usedWithCloudKit, blank.usedWithCloudKit)),
            ("usedWithSwiftData", flag(header.usedWithSwiftData, blank.usedWithSwiftData)),
            ("name", optional(header.name)),
            ("macOSVersion", optional(header.macOSVersion)),
            ("iOSVersion", optional(header.iOSVersion)),
        ])
    }

    private static func expression(for entity: Entity) -> SwiftExpression {
        let blank = Entity("")
        return call("DataModel.Entity", [
            (nil, .string(entity.name)),
            ("className", optional(entity.className?.rawValue)),
            ("parentName", optional(entity.parentName)),
            ("isAbstract", flag(entity.isAbstract, blank.isAbstract)),
            ("codeGenerationType", entity.codeGenerationType == blank.codeGenerationType ? nil : member(entity.codeGenerationType)),
            ("elementID", optional(entity.elementID)),
            ("versionHashModifier", optional(entity.versionHashModifier)),
            ("isSyncable", flag(entity.isSyncable, blank.isSyncable)),
            ("attributes", list(entity.attributes.map(expression(for:)))),
            ("relationships", list(entity.relationships.map(expression(for:)))),
            ("fetchedProperties", list(entity.fetchedProperties.map(expression(for:)))),
            ("fetchIndexes", list(entity.fetchIndexes.map(expression(for:)))),
            ("compoundIndexes", list(entity.compoundIndexes.map { call("DataModel.CompoundIndex", [(nil, names($0.properties))]) })),
            ("uniquenessConstraints", list(entity.uniquenessConstraints.map {
                call("DataModel.UniquenessConstraint", [(nil, names($0.properties))])
            })),
            ("userInfo", expression(for: entity.userInfo)),
        ])
    }

    private static func expression(for attribute: Attribute) -> SwiftExpression {
        let blank = Attribute("", attribute.type)
        return call("DataModel.Attribute", [
            (nil, .string(attribute.name)),
            (nil, member(attribute.type)),
            ("isOptional", flag(attribute.isOptional, blank.isOptional)),
            ("isTransient", flag(attribute.isTransient, blank.isTransient)),
            ("isIndexed", flag(attribute.isIndexed, blank.isIndexed)),
            ("isSyncable", flag(attribute.isSyncable, blank.isSyncable)),
            ("isDerived", flag(attribute.isDerived, blank.isDerived)),
            ("derivationExpression", optional(attribute.derivationExpression)),
            ("defaultValue", optional(attribute.defaultValue)),
            ("defaultDateTimeInterval", optional(attribute.defaultDateTimeInterval)),
            ("defaultData", attribute.defaultData.map(bytes)),
            ("minValue", optional(attribute.minValue)),
            ("maxValue", optional(attribute.maxValue)),
            ("minDateTimeInterval", optional(attribute.minDateTimeInterval)),
            ("maxDateTimeInterval", optional(attribute.maxDateTimeInterval)),
            ("regularExpression", optional(attribute.regularExpression)),
            ("usesScalarValueType", attribute.usesScalarValueType.map { .raw("\($0)") }),
            ("valueTransformerName", optional(attribute.valueTransformerName)),
            ("customClassName", optional(attribute.customClassName)),
            ("compositeName", optional(attribute.compositeName)),
            ("allowsExternalBinaryDataStorage",
             flag(attribute.allowsExternalBinaryDataStorage, blank.allowsExternalBinaryDataStorage)),
            ("isIndexedBySpotlight", flag(attribute.isIndexedBySpotlight, blank.isIndexedBySpotlight)),
            ("isStoredInExternalRecord", flag(attribute.isStoredInExternalRecord, blank.isStoredInExternalRecord)),
            ("preservesValueInHistoryOnDeletion",
             flag(attribute.preservesValueInHistoryOnDeletion, blank.preservesValueInHistoryOnDeletion)),
            ("allowsCloudEncryption", flag(attribute.allowsCloudEncryption, blank.allowsCloudEncryption)),
            ("elementID", optional(attribute.elementID)),
            ("renamingIdentifier", optional(attribute.renamingIdentifier)),
            ("versionHashModifier", optional(attribute.versionHashModifier)),
            ("userInfo", expression(for: attribute.userInfo)),
        ])
    }

    private static func expression(for relationship: Relationship) -> SwiftExpression {
        let blank = Relationship("", destination: "")
        return call("DataModel.Relationship", [
            (nil, .string(relationship.name)),
            ("destination", .string(relationship.destinationEntityName)),
            ("inverseName", optional(relationship.inverseName)),
            ("inverseEntityName", optional(relationship.inverseEntityName)),
            ("isToMany", flag(relationship.isToMany, blank.isToMany)),
            ("isOrdered", flag(relationship.isOrdered, blank.isOrdered)),
            ("minCount", relationship.minCount.map { .raw("\($0)") }),
            ("maxCount", relationship.maxCount.map { .raw("\($0)") }),
            ("deleteRule", relationship.deleteRule == blank.deleteRule ? nil : member(relationship.deleteRule)),
            ("isOptional", flag(relationship.isOptional, blank.isOptional)),
            ("isTransient", flag(relationship.isTransient, blank.isTransient)),
            ("isIndexed", flag(relationship.isIndexed, blank.isIndexed)),
            ("isSyncable", flag(relationship.isSyncable, blank.isSyncable)),
            ("elementID", optional(relationship.elementID)),
            ("renamingIdentifier", optional(relationship.renamingIdentifier)),
            ("versionHashModifier", optional(relationship.versionHashModifier)),
            ("userInfo", expression(for: relationship.userInfo)),
        ])
    }

    private static func expression(for property: FetchedProperty) -> SwiftExpression {
        let blank = FetchedProperty("", entityName: "")
        return call("DataModel.FetchedProperty", [
            (nil, .string(property.name)),
            ("entityName", .string(property.fetchRequest.entityName)),
            ("predicate", optional(property.fetchRequest.predicate)),
            ("sortDescriptors", list(property.fetchRequest.sortDescriptors.map(expression(for:)))),
            ("requestName", property.fetchRequest.name == blank.fetchRequest.name ? nil : .string(property.fetchRequest.name)),
            ("isOptional", flag(property.isOptional, blank.isOptional)),
            ("isSyncable", flag(property.isSyncable, blank.isSyncable)),
            ("userInfo", expression(for: property.userInfo)),
        ])
    }

    private static func expression(for index: FetchIndex) -> SwiftExpression {
        let blank = FetchIndex.Element()
        return call("DataModel.FetchIndex", [
            (nil, .string(index.name)),
            (nil, .array(index.elements.map { element in
                call("DataModel.FetchIndex.Element", [
                    ("property", optional(element.property)),
                    ("expression", optional(element.expression)),
                    ("expressionType", optional(element.expressionType)),
                    ("kind", element.kind == blank.kind ? nil : member(element.kind)),
                    ("order", element.order == blank.order ? nil : member(element.order)),
                ])
            })),
        ])
    }

    private static func expression(for composite: Composite) -> SwiftExpression {
        call("DataModel.Composite", [(nil, .string(composite.name)), ("attributes", .array(composite.attributes.map(expression(for:))))])
    }

    private static func expression(for template: FetchRequestTemplate) -> SwiftExpression {
        let blank = FetchRequestTemplate("", entityName: "")
        return call("DataModel.FetchRequestTemplate", [
            (nil, .string(template.name)),
            ("entityName", .string(template.entityName)),
            ("predicate", optional(template.predicate)),
            ("sortDescriptors", list(template.sortDescriptors.map(expression(for:)))),
            ("resultType", template.resultType == blank.resultType ? nil : member(template.resultType)),
            ("fetchLimit", template.fetchLimit == blank.fetchLimit ? nil : .raw("\(template.fetchLimit)")),
            ("fetchBatchSize", template.fetchBatchSize == blank.fetchBatchSize ? nil : .raw("\(template.fetchBatchSize)")),
            ("includesSubentities", flag(template.includesSubentities, blank.includesSubentities)),
            ("includesPropertyValues", flag(template.includesPropertyValues, blank.includesPropertyValues)),
            ("includesPendingChanges", flag(template.includesPendingChanges, blank.includesPendingChanges)),
            ("returnsObjectsAsFaults", flag(template.returnsObjectsAsFaults, blank.returnsObjectsAsFaults)),
            ("returnsDistinctResults", flag(template.returnsDistinctResults, blank.returnsDistinctResults)),
        ])
    }

    /// `FetchSortDescriptor(keyPath: "rating", ascending: false)`: what a fetch made in code orders by.
    private static func expression(for descriptor: FetchSortDescriptor) -> SwiftExpression {
        let blank = FetchSortDescriptor(keyPath: "")
        return call("DataModel.FetchSortDescriptor", [
            ("keyPath", .string(descriptor.keyPath)),
            ("ascending", flag(descriptor.ascending, blank.ascending)),
            ("selector", descriptor.selector == blank.selector ? nil : .string(descriptor.selector)),
        ])
    }

    /// `UserInfo(["key": "value", …])`, or nil when empty.
    private static func expression(for userInfo: UserInfo) -> SwiftExpression? {
        guard !userInfo.isEmpty else { return nil }
        let pairs = userInfo.entries.map { "\(swiftStringLiteral($0.key)): \(swiftStringLiteral($0.value))" }
        return call("DataModel.UserInfo", [(nil, .raw("[" + pairs.joined(separator: ", ") + "]"))])
    }

    // MARK: Pieces

    /// A call without the arguments that are nil (left at their default).
    private static func call(_ callee: String, _ arguments: [(String?, SwiftExpression?)]) -> SwiftExpression {
        .call(callee, arguments.compactMap { label, value in value.map { (label, $0) } })
    }

    private static func list(_ elements: [SwiftExpression]) -> SwiftExpression? {
        elements.isEmpty ? nil : .array(elements)
    }

    private static func names(_ references: [NameReference]) -> SwiftExpression {
        .array(references.map { .string($0.name) })
    }

    private static func optional(_ text: String?) -> SwiftExpression? {
        text.map(SwiftExpression.string)
    }

    private static func optional(_ number: Double?) -> SwiftExpression? {
        number.map { .raw(doubleLiteral($0)) }
    }

    /// `[0x62, 0x70, …]`: bytes as a literal of `[UInt8]`, sixteen to a line when it breaks.
    private static func bytes(_ data: Data) -> SwiftExpression {
        let literals = data.map { byte in "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
        return .array(stride(from: 0, to: literals.count, by: 16).map { start in
            .raw(literals[start..<min(start + 16, literals.count)].joined(separator: ", "))
        })
    }

    private static func flag(_ value: Bool, _ defaultValue: Bool) -> SwiftExpression? {
        value == defaultValue ? nil : .raw("\(value)")
    }

    /// `.caseName` of an enum value.
    private static func member(_ value: some Any) -> SwiftExpression {
        .raw(".\(value)")
    }
}

/// A `Double` as a Swift literal that reads back as the same value.
func doubleLiteral(_ value: Double) -> String {
    if value.isNaN { return "Double.nan" }
    if value.isInfinite { return value < 0 ? "-Double.infinity" : "Double.infinity" }
    return "\(value)"
}
