/// A short, readable outline of a model: entities with their parents and properties.
///
///     Book : ManagedObject (class Book)
///       title: String?
///       author → Author (to-one, inverse books, Nullify)
public enum ModelSummary {
    public static func text(of model: Model) -> String {
        var lines: [String] = []
        let version = model.versionName.map { " (version \($0))" } ?? ""
        lines.append("\(model.entities.count) entities\(version)")
        for entity in model.entities {
            var heading = entity.name
            if let parent = entity.parentName { heading += " : \(parent)" }
            if entity.isAbstract { heading += " (abstract)" }
            if let className = entity.className, className.rawValue != entity.name { heading += " class \(className.rawValue)" }
            lines.append("")
            lines.append(heading)
            for attribute in entity.attributes {
                var flags: [String] = []
                if attribute.isTransient { flags.append("transient") }
                if attribute.isDerived { flags.append("derived") }
                if let value = attribute.defaultValue { flags.append("default \(value)") }
                if let bytes = attribute.defaultData { flags.append("default \(bytes.count) bytes") }
                let suffix = flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))"
                lines.append("  \(attribute.name): \(attribute.type.rawValue)\(attribute.isOptional ? "?" : "")\(suffix)")
            }
            for relationship in entity.relationships {
                var flags = [relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"]
                flags.append(relationship.inverseName.map { "inverse \($0)" } ?? "no inverse")
                flags.append(relationship.deleteRule.rawValue)
                lines.append("  \(relationship.name) → \(relationship.destinationEntityName) (\(flags.joined(separator: ", ")))")
            }
            for fetched in entity.fetchedProperties {
                let predicate = fetched.fetchRequest.predicate.map { " where \($0)" } ?? ""
                lines.append("  \(fetched.name) ⇢ fetch \(fetched.fetchRequest.entityName)\(predicate)")
            }
        }
        if !model.fetchRequestTemplates.isEmpty {
            lines.append("")
            lines.append("fetch request templates")
            for template in model.fetchRequestTemplates {
                lines.append("  \(template.name): \(template.entityName)\(template.predicate.map { " where \($0)" } ?? "")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
