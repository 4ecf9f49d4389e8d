import DataModel
import Foundation

/// Writes a model as Xcode writes an `.xcdatamodel`'s `contents`: what `datamodel-gen
/// extract-model` saves of the model a store carries, and what ``ModelParser`` reads back to the
/// same model.
///
/// It writes the header as the model holds it, entities with their attributes, relationships,
/// fetched properties, fetch indexes, compound indexes, uniqueness constraints and user info, fetch
/// request templates, and configurations. What Xcode's XML cannot say is refused
/// (`ModelWriter.Unsupported`), never written without it: composites, and what a model built in
/// code may hold: the sort descriptors of a fetch, and defaults of Binary and Transformable attributes.
public enum ModelWriter {
    /// What the writer does not write, named.
    public struct Unsupported: Error, CustomStringConvertible {
        public var description: String
    }

    public static func contents(of model: Model) throws(Unsupported) -> String {
        if let composite = model.composites.first { throw Unsupported(description: "the composite \(composite.name) is not written") }
        if let template = model.fetchRequestTemplates.first(where: { !$0.sortDescriptors.isEmpty }) {
            throw Unsupported(description: "the fetch request template \(template.name) sorts its results, which Xcode's XML cannot say")
        }
        var lines = [#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#]
        let header = model.header
        lines.append("<model" + attributes([
            ("type", header.type), ("documentVersion", header.documentVersion), ("lastSavedToolsVersion", header.lastSavedToolsVersion),
            ("systemVersion", header.systemVersion), ("minimumToolsVersion", header.minimumToolsVersion), ("sourceLanguage", header.sourceLanguage),
            ("userDefinedModelVersionIdentifier", header.userDefinedModelVersionIdentifier), ("usedWithCloudKit", yes(header.usedWithCloudKit)),
            ("usedWithSwiftData", yes(header.usedWithSwiftData)), ("name", header.name), ("macOSVersion", header.macOSVersion),
            ("iOSVersion", header.iOSVersion),
        ]) + ">")
        for entity in model.entities {
            if let fetched = entity.fetchedProperties.first(where: { !$0.fetchRequest.sortDescriptors.isEmpty }) {
                throw Unsupported(description: "the fetched property \(entity.name).\(fetched.name) sorts its results, which Xcode's XML cannot say")
            }
            if let attribute = entity.attributes.first(where: { $0.defaultData != nil }) {
                throw Unsupported(description: "the default of \(entity.name).\(attribute.name) is an object or bytes, which Xcode's XML cannot say")
            }
            lines += self.entity(entity)
        }
        lines += model.fetchRequestTemplates.map(template)
        for configuration in model.configurations {
            lines.append("    <configuration" + attributes([("name", configuration.name)]) + ">")
            lines += configuration.memberEntities.map { "        <memberEntity" + attributes([("name", $0.name)]) + "/>" }
            lines.append("    </configuration>")
        }
        lines.append("</model>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func entity(_ entity: Entity) -> [String] {
        var lines = ["    <entity" + attributes([
            ("name", entity.name), ("representedClassName", entity.className?.rawValue), ("parentEntity", entity.parentName),
            ("isAbstract", entity.isAbstract ? "YES" : nil), ("elementID", entity.elementID), ("versionHashModifier", entity.versionHashModifier),
            ("syncable", entity.isSyncable ? "YES" : nil), ("codeGenerationType", entity.codeGenerationType == .manual ? nil : entity.codeGenerationType.rawValue),
        ]) + ">"]
        for attribute in entity.attributes {
            lines.append(element("attribute", [
                ("name", attribute.name), ("optional", yes(attribute.isOptional)), ("transient", yes(attribute.isTransient)),
                ("attributeType", attribute.type.rawValue), ("derived", yes(attribute.isDerived)), ("derivationExpression", attribute.derivationExpression),
                ("defaultValueString", attribute.defaultValue), ("defaultDateTimeInterval", attribute.defaultDateTimeInterval.map { "\($0)" }),
                ("minValueString", attribute.minValue), ("maxValueString", attribute.maxValue),
                ("minDateTimeInterval", attribute.minDateTimeInterval.map { "\($0)" }), ("maxDateTimeInterval", attribute.maxDateTimeInterval.map { "\($0)" }),
                ("regularExpressionString", attribute.regularExpression), ("indexed", yes(attribute.isIndexed)),
                ("allowsExternalBinaryDataStorage", yes(attribute.allowsExternalBinaryDataStorage)),
                ("spotlightIndexingEnabled", yes(attribute.isIndexedBySpotlight)), ("storedInTruthFile", yes(attribute.isStoredInExternalRecord)),
                ("preserveAfterDeletion", yes(attribute.preservesValueInHistoryOnDeletion)), ("allowsCloudEncryption", yes(attribute.allowsCloudEncryption)),
                ("valueTransformerName", attribute.valueTransformerName), ("customClassName", attribute.customClassName),
                ("composite", attribute.compositeName), ("usesScalarValueType", attribute.usesScalarValueType.map { $0 ? "YES" : "NO" }),
                ("elementID", attribute.elementID), ("renamingIdentifier", attribute.renamingIdentifier),
                ("versionHashModifier", attribute.versionHashModifier), ("syncable", yes(attribute.isSyncable)),
            ], userInfo: attribute.userInfo))
        }
        for relationship in entity.relationships {
            lines.append(element("relationship", [
                ("name", relationship.name), ("optional", yes(relationship.isOptional)), ("transient", yes(relationship.isTransient)),
                ("toMany", yes(relationship.isToMany)), ("ordered", yes(relationship.isOrdered)),
                ("minCount", relationship.minCount.map(String.init)), ("maxCount", relationship.maxCount.map(String.init)),
                ("deletionRule", relationship.deleteRule.rawValue), ("destinationEntity", relationship.destinationEntityName),
                ("inverseName", relationship.inverseName), ("inverseEntity", relationship.inverseEntityName),
                ("indexed", yes(relationship.isIndexed)), ("elementID", relationship.elementID),
                ("renamingIdentifier", relationship.renamingIdentifier), ("versionHashModifier", relationship.versionHashModifier),
                ("syncable", yes(relationship.isSyncable)),
            ], userInfo: relationship.userInfo))
        }
        for property in entity.fetchedProperties {
            lines.append("        <fetchedProperty" + attributes([
                ("name", property.name), ("optional", yes(property.isOptional)), ("syncable", yes(property.isSyncable)),
            ]) + ">")
            lines.append("            <fetchRequest" + attributes([
                ("name", property.fetchRequest.name), ("entity", property.fetchRequest.entityName),
                ("predicateString", property.fetchRequest.predicate),
            ]) + "/>")
            lines += userInfo(property.userInfo, indent: "            ")
            lines.append("        </fetchedProperty>")
        }
        for index in entity.fetchIndexes {
            lines.append("        <fetchIndex" + attributes([("name", index.name)]) + ">")
            lines += index.elements.map { element in
                "            <fetchIndexElement" + attributes([
                    ("property", element.property), ("expression", element.expression), ("expressionType", element.expressionType),
                    ("type", element.kind.rawValue), ("order", element.order.rawValue),
                ]) + "/>"
            }
            lines.append("        </fetchIndex>")
        }
        lines += nameLists("compoundIndexes", "compoundIndex", "index", entity.compoundIndexes.map { $0.properties.map(\.name) })
        lines += nameLists("uniquenessConstraints", "uniquenessConstraint", "constraint", entity.uniquenessConstraints.map { $0.properties.map(\.name) })
        lines += userInfo(entity.userInfo, indent: "        ")
        lines.append("    </entity>")
        return lines
    }

    /// A model-level `<fetchRequest>`; each setting is written where it differs from what the XML
    /// means without it.
    private static func template(_ template: FetchRequestTemplate) -> String {
        func flag(_ value: Bool, default standard: Bool) -> String? { value == standard ? nil : (value ? "YES" : "NO") }
        return "    <fetchRequest" + attributes([
            ("name", template.name), ("entity", template.entityName), ("predicateString", template.predicate),
            ("resultType", template.resultType == .managedObjects ? nil : String(template.resultType.rawValue)),
            ("fetchLimit", template.fetchLimit == 0 ? nil : String(template.fetchLimit)),
            ("fetchBatchSize", template.fetchBatchSize == 0 ? nil : String(template.fetchBatchSize)),
            ("includeSubentities", flag(template.includesSubentities, default: true)),
            ("includePropertyValues", flag(template.includesPropertyValues, default: true)),
            ("includesPendingChanges", flag(template.includesPendingChanges, default: true)),
            ("returnObjectsAsFaults", flag(template.returnsObjectsAsFaults, default: true)),
            ("returnDistinctResults", flag(template.returnsDistinctResults, default: false)),
        ]) + "/>"
    }

    /// `<name …/>`, or with its user info inside.
    private static func element(_ name: String, _ values: [(String, String?)], userInfo info: UserInfo) -> String {
        let start = "        <\(name)" + attributes(values)
        guard !info.isEmpty else { return start + "/>" }
        return ([start + ">"] + userInfo(info, indent: "            ") + ["        </\(name)>"]).joined(separator: "\n")
    }

    private static func userInfo(_ info: UserInfo, indent: String) -> [String] {
        guard !info.isEmpty else { return [] }
        return [indent + "<userInfo>"] + info.entries.map { indent + "    <entry" + attributes([("key", $0.key), ("value", $0.value)]) + "/>" }
            + [indent + "</userInfo>"]
    }

    private static func nameLists(_ outer: String, _ list: String, _ item: String, _ lists: [[String]]) -> [String] {
        guard !lists.isEmpty else { return [] }
        var lines = ["        <\(outer)>"]
        for names in lists {
            lines.append("            <\(list)>")
            for name in names { lines.append("                <\(item)" + attributes([("value", name)]) + "/>") }
            lines.append("            </\(list)>")
        }
        lines.append("        </\(outer)>")
        return lines
    }

    private static func yes(_ flag: Bool) -> String? {
        flag ? "YES" : nil
    }

    /// ` name="value"` for each value that is set, escaped for an attribute.
    static func attributes(_ values: [(String, String?)]) -> String {
        values.compactMap { name, value in value.map { " \(name)=\"\(escaped($0))\"" } }.joined()
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
