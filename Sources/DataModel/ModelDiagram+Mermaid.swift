extension ModelDiagram {
    /// A Mermaid `classDiagram`: a class per entity with its attributes (abstract ones annotated),
    /// `<|--` from parent to subentity, and a line per relationship with the multiplicity at each
    /// end; a relationship without an inverse is an arrow.
    static func mermaid(of model: Model) -> String {
        var lines = ["classDiagram"]
        for entity in model.entities {
            let members = (entity.isAbstract ? ["<<abstract>>"] : []) + entity.attributes.map(line(for:))
            if members.isEmpty {
                lines.append("    class \(entity.name)")
            } else {
                lines.append("    class \(entity.name) {")
                lines += members.map { "        \($0)" }
                lines.append("    }")
            }
        }
        for entity in model.entities {
            if let parent = entity.parentName { lines.append("    \(parent) <|-- \(entity.name)") }
        }
        for link in links(of: model) {
            let destination = link.relationship.destinationEntityName
            let far = "\"\(multiplicity(of: link.relationship))\""
            if let inverse = link.inverse {
                lines.append("    \(link.entity.name) \"\(multiplicity(of: inverse))\" -- \(far) \(destination) : \(link.label)")
            } else {
                lines.append("    \(link.entity.name) --> \(far) \(destination) : \(link.label)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
