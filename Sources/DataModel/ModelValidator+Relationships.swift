/// Relationship rules: destinations, inverses, counts.
extension ModelValidator {
    func checkRelationship(
        _ relationship: Relationship, of entity: Entity, in model: Model, _ findings: inout Findings
    ) {
        let names = (relationship: relationship.name, entity: entity.name)  // capture names, not whole values
        func what() -> String { "relationship '\(names.relationship)' of entity '\(names.entity)'" }
        let location = relationship.location
        if !model.containsEntity(named: relationship.destinationEntityName) {
            findings.error(
                "\(what()) has unknown destination entity '\(relationship.destinationEntityName)'", at: location)
        }
        checkInverse(of: relationship, what: what, in: entity, model, &findings)
        checkCounts(of: relationship, what: what, &findings)
    }

    private func checkInverse(
        of relationship: Relationship, what: () -> String, in entity: Entity, _ model: Model, _ findings: inout Findings
    ) {
        let location = relationship.location
        guard let inverseName = relationship.inverseName else {
            if let inverseEntityName = relationship.inverseEntityName {
                findings.warning(
                    "\(what()) names inverse entity '\(inverseEntityName)' but no inverse relationship; it is treated as having no inverse",
                    at: location)
            } else {
                findings.warning(
                    "\(what()) has no inverse; the other side cannot be kept consistent and deletes may leave dangling references",
                    at: location)
            }
            return
        }
        let inverseEntityName = relationship.inverseEntityName ?? relationship.destinationEntityName
        if relationship.inverseEntityName == nil {
            findings.warning(
                "\(what()) names inverse '\(inverseName)' but no inverse entity; the inverse is looked up on its destination '\(inverseEntityName)'",
                at: location)
        }
        guard model.containsEntity(named: inverseEntityName) else {
            findings.error("\(what()) has unknown inverse entity '\(inverseEntityName)'", at: location)
            return
        }
        if inverseEntityName != relationship.destinationEntityName {
            findings.error(
                "\(what()) has inverse entity '\(inverseEntityName)', which is not its destination '\(relationship.destinationEntityName)'",
                at: location)
            return
        }
        guard case .relationship(let inverse)? = model.property(named: inverseName, inEntityNamed: inverseEntityName) else {
            findings.error(
                "\(what()) has inverse '\(inverseName)', which is not a relationship of entity '\(inverseEntityName)'",
                at: location)
            return
        }
        if model.hasNonReciprocalInverse(relationship) {
            // Xcode compiles this and Core Data uses the store: the named inverse stays paired with
            // its own inverse, and this relationship is kept like one without an inverse.
            let target = inverse.inverseName.map { "'\(inverse.destinationEntityName).\($0)'" } ?? "no inverse"
            findings.warning(
                "\(what()) has inverse '\(inverseEntityName).\(inverseName)', but that relationship has \(target) instead of pointing back; "
                    + "'\(inverseName)' stays paired with its own inverse, and '\(relationship.name)' is stored and kept in step on its own, like a relationship without an inverse",
                at: location)
        }
    }

    private func checkCounts(of relationship: Relationship, what: () -> String, _ findings: inout Findings) {
        let location = relationship.location
        let minCount = relationship.minCount ?? 0
        let maxCount = relationship.maxCount ?? 0
        if minCount < 0 || maxCount < 0 {
            // Xcode's editor never writes one; a model made in code may (CoreDataPlus sets a to-many
            // maximum of -1), and Core Data saves with it as with no limit.
            findings.warning("\(what()) has a negative minimum or maximum count; it is read as no limit", at: location)
            return
        }
        if relationship.isToOne {
            if maxCount > 1 {
                findings.error("\(what()) is to-one but has maximum count \(maxCount); make it to-many or set the maximum to 1", at: location)
            }
            if minCount > 1 {
                findings.error("\(what()) is to-one but has minimum count \(minCount)", at: location)
            }
            if relationship.isOrdered {
                findings.warning("\(what()) is to-one; 'ordered' only applies to to-many relationships", at: location)
            }
        } else {
            if maxCount == 1 {
                findings.error("\(what()) is to-many but has maximum count 1; make it to-one or raise the maximum", at: location)
            } else if maxCount > 0 && minCount > maxCount {
                findings.error("\(what()) has minimum count \(minCount) greater than maximum count \(maxCount)", at: location)
            }
        }
    }
}
