/// Rules for names that refer elsewhere: indexes, constraints, fetched properties, templates, configurations.
extension ModelValidator {
    func checkIndexesAndConstraints(of entity: Entity, in model: Model, _ findings: inout Findings) {
        var indexNames: Set<String> = []
        for index in entity.fetchIndexes {
            if !indexNames.insert(index.name).inserted {
                findings.error("duplicate fetch index '\(index.name)' in entity '\(entity.name)'", at: index.location)
            }
            if index.elements.isEmpty {
                findings.error("fetch index '\(index.name)' of entity '\(entity.name)' has no elements", at: index.location)
            }
            for element in index.elements {
                guard let name = element.property else { continue }  // expression element
                checkIndexable(
                    NameReference(name, at: element.location), what: "fetch index '\(index.name)'", isAnIndex: true, entity, model, &findings)
            }
        }
        for index in entity.compoundIndexes {
            for reference in index.properties {
                checkIndexable(reference, what: "compound index", isAnIndex: true, entity, model, &findings)
            }
        }
        for constraint in entity.uniquenessConstraints {
            if constraint.properties.isEmpty {
                findings.error("uniqueness constraint of entity '\(entity.name)' names no property", at: constraint.location)
            }
            for reference in constraint.properties {
                checkIndexable(reference, what: "uniqueness constraint", isAnIndex: false, entity, model, &findings)
            }
        }
    }

    /// Indexes and constraints may name stored attributes and to-one relationships, own or inherited.
    /// Xcode also compiles an index element naming a to-many relationship, which has no column: the
    /// store's index covers the other elements (and there is none when no element has a column).
    private func checkIndexable(
        _ reference: NameReference, what: String, isAnIndex: Bool, _ entity: Entity, _ model: Model, _ findings: inout Findings
    ) {
        let prefix = "\(what) of entity '\(entity.name)'"
        switch model.property(named: reference.name, in: entity) {
        case nil:
            findings.error("\(prefix) names unknown property '\(reference.name)'", at: reference.location)
        case .fetchedProperty?:
            findings.error("\(prefix) names fetched property '\(reference.name)', which has no storage", at: reference.location)
        case .attribute(let attribute)? where attribute.isTransient:
            findings.error("\(prefix) names transient attribute '\(reference.name)', which has no storage", at: reference.location)
        case .relationship(let relationship)? where isAnIndex && relationship.isToMany && !relationship.isTransient:
            findings.warning(
                "\(prefix) names to-many relationship '\(reference.name)', which has no column; the store's index covers only the other elements (and is not made when there are none)",
                at: reference.location)
        case .relationship(let relationship)? where relationship.isToMany || relationship.isTransient:
            findings.error("\(prefix) names relationship '\(reference.name)', which is not a stored to-one", at: reference.location)
        default:
            break
        }
    }

    func checkFetchedProperties(of entity: Entity, in model: Model, _ findings: inout Findings) {
        for fetchedProperty in entity.fetchedProperties {
            let request = fetchedProperty.fetchRequest
            if !model.containsEntity(named: request.entityName) {
                findings.error(
                    "fetched property '\(fetchedProperty.name)' of entity '\(entity.name)' fetches unknown entity '\(request.entityName)'",
                    at: request.location)
            }
        }
    }

    func checkTemplatesAndConfigurations(_ model: Model, _ findings: inout Findings) {
        var templateNames: Set<String> = []
        for template in model.fetchRequestTemplates {
            if !templateNames.insert(template.name).inserted {
                findings.error("duplicate fetch request template '\(template.name)'", at: template.location)
            }
            if !model.containsEntity(named: template.entityName) {
                findings.error(
                    "fetch request template '\(template.name)' fetches unknown entity '\(template.entityName)'",
                    at: template.location)
            }
        }
        var configurationNames: Set<String> = []
        for configuration in model.configurations {
            if !configurationNames.insert(configuration.name).inserted {
                findings.error("duplicate configuration '\(configuration.name)'", at: configuration.location)
            }
            for member in configuration.memberEntities where !model.containsEntity(named: member.name) {
                findings.error(
                    "configuration '\(configuration.name)' lists unknown entity '\(member.name)'", at: member.location)
            }
        }
        var compositeNames: Set<String> = []
        for composite in model.composites where !compositeNames.insert(composite.name).inserted {
            findings.error("duplicate composite '\(composite.name)'", at: composite.location)
        }
    }
}
