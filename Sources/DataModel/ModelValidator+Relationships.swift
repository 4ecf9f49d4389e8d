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
        switch (relationship.inverseName, relationship.inverseEntityName) {
        case (nil, nil):
            findings.warning(
                "\(what()) has no inverse; the other side cannot be kept consistent and deletes may leave dangling references",
                at: location)
            return
        case (nil, _?):
            findings.error("\(what()) names an inverse entity but no inverse relationship", at: location)
            return
        case (_?, nil):
            findings.error("\(what()) names an inverse relationship but no inverse entity", at: location)
            return
        case (let inverseName?, let inverseEntityName?):
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
            let pointsBack = inverse.inverseName == relationship.name
                && model.entity(entity, isKindOf: inverse.destinationEntityName)
            if !pointsBack {
                let target = inverse.inverseName.map { "'\(inverse.destinationEntityName).\($0)'" } ?? "no inverse"
                findings.error(
                    "\(what()) has inverse '\(inverseEntityName).\(inverseName)', but that relationship has \(target) instead of pointing back",
                    at: location)
            }
        }
    }

    private func checkCounts(of relationship: Relationship, what: () -> String, _ findings: inout Findings) {
        let location = relationship.location
        let minCount = relationship.minCount ?? 0
        let maxCount = relationship.maxCount ?? 0
        if minCount < 0 || maxCount < 0 {
            findings.error("\(what()) has a negative minimum or maximum count", at: location)
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
