/// Entity-level rules: names, inheritance, property names.
extension ModelValidator {
    func checkEntityNames(_ model: Model, _ findings: inout Findings) {
        var firstDeclaration: [String: SourceLocation] = [:]
        for entity in model.entities {
            if entity.name.isEmpty {
                findings.error("entity has an empty name", at: entity.location)
                continue
            }
            if let first = firstDeclaration[entity.name] {
                findings.error(
                    "duplicate entity '\(entity.name)' (first declared at line \(first.line))", at: entity.location)
            } else {
                firstDeclaration[entity.name] = entity.location
            }
            let typeName = entity.className?.name ?? entity.name
            if ReservedNames.typeNames.contains(typeName) || ReservedNames.swiftKeywords.contains(typeName) {
                findings.warning(
                    "class name '\(typeName)' of entity '\(entity.name)' clashes with a Swift or DataStore type; generated code will qualify or rename it",
                    at: entity.location)
            }
        }
    }

    func checkInheritance(of entity: Entity, in model: Model, _ findings: inout Findings) {
        if let parentName = entity.parentName {
            if !model.containsEntity(named: parentName) {
                findings.error(
                    "entity '\(entity.name)' has unknown parent entity '\(parentName)'", at: entity.location)
            } else if let cycle = inheritanceCycle(from: entity, in: model) {
                findings.error(
                    "entity '\(entity.name)' inherits from itself: \(cycle.joined(separator: " → "))",
                    at: entity.location)
            }
        }
        if entity.isAbstract && model.subentities(of: entity).isEmpty {
            findings.warning(
                "abstract entity '\(entity.name)' has no subentities, so no object of it can ever exist",
                at: entity.location)
        }
    }

    /// The names around the cycle through `entity` (`A → B → A`), or nil when its chain ends.
    private func inheritanceCycle(from entity: Entity, in model: Model) -> [String]? {
        var path = [entity.name]
        var seen: Set<String> = [entity.name]
        var next = entity.parentName
        while let name = next, let parent = model.entity(named: name) {
            path.append(name)
            if name == entity.name { return path }
            guard seen.insert(name).inserted else { return nil }  // a cycle above, reported on its members
            next = parent.parentName
        }
        return nil
    }

    func checkPropertyNames(of entity: Entity, in model: Model, _ findings: inout Findings) {
        let properties = entity.propertySummaries
        var seen = Set<String>(minimumCapacity: properties.count)
        let inherited = model.parentChain(of: entity)
        let entityName = entity.name
        for (name, kind, location) in properties {
            func what() -> String { "\(kind) '\(name)' of entity '\(entityName)'" }
            if name.isEmpty {
                findings.error("\(kind) of entity '\(entityName)' has an empty name", at: location)
                continue
            }
            if !seen.insert(name).inserted, let first = properties.first(where: { $0.name == name }) {
                findings.error(
                    "duplicate property '\(name)' in entity '\(entityName)' (first declared as \(first.kind) at line \(first.location.line))",
                    at: location)
            }
            if let owner = inherited.first(where: { $0.declaresProperty(named: name) }) {
                findings.error("\(what()) is already defined by its superentity '\(owner.name)'", at: location)
            }
            switch ReservedNames.clash(forPropertyNamed: name) {
            case .swiftKeyword?:
                findings.warning("\(what()) is a Swift keyword; generated code will escape it", at: location)
            case .objectMember?:
                findings.warning(
                    "\(what()) clashes with the object API member '\(name)'; generated code will rename it", at: location)
            case nil:
                break
            }
        }
    }
}
